// The keyboard map ("?"); the keys are handled by app/use-key-map.js.
import './keymap.css';
const KEYS = [
  ['1 … 8', 'Flame graph, Flame chart, Call tree, Sandwich, Functions, Composition, Diagnostics, Compare'],
  ['/', 'Search functions (substring, or /regex/)'],
  ['+  −  0', 'Flame chart: zoom in, out, whole profile'],
  ['← → / A D', 'Flame chart: pan'],
  ['↑ ↓ / W S', 'Flame chart: scroll lanes'],
  ['j  k', 'Next / previous record'],
  ['g', 'Go to offset'],
  ['Esc', 'Flame graph: reset zoom; close this map'],
  ['← → ↑ ↓ *', 'Call tree: collapse, expand, move, expand all'],
  ['?', 'Show / hide this map'],
];

export function KeyMap({ onClose }) {
  return (
    <div class="keymap-backdrop" onClick={onClose}>
      <div class="keymap" role="dialog" aria-label="Keyboard shortcuts" onClick={(e) => e.stopPropagation()}>
        <h2>Keyboard</h2>
        <table>
          <tbody>
            {KEYS.map(([k, what]) => (
              <tr key={k}>
                <th scope="row">
                  <kbd>{k}</kbd>
                </th>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
