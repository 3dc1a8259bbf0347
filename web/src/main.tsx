import './styles/index.css';
// The app, imported with the entry so it has taken over the prerendered page by the browser's load
// event. (A loader that fetched it only after the first paint let a visitor type into the
// prerendered search box, or tap a card, before the app was there, and lose it.)
import './boot';
