import { render } from 'preact';
import { App } from './app.jsx';
import './app.css';

render(<App />, document.getElementById('app'));
