export { serveOverStdio, type StdioHandle } from './stdio.js';
