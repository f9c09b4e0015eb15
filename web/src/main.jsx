import { render } from 'preact';
import { App } from './app.jsx';
import './app.css';
import { applyTheme, getTheme } from './lib/theme.js';

applyTheme(getTheme());

render(<App />, document.getElementById('app'));
