// Entry of the UI (main thread). The UI never parses code or reads git objects: the engine worker does.
import './components/rl-app.ts';
