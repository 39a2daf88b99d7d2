// Entry point of the hosted page.
import { start } from './app.js';

start();
