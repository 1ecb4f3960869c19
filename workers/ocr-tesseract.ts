/**
 * Entry of the recognition thread that tesseract.js spawns: the network guard goes in first, then the
 * stock tesseract.js worker script (which loads its WASM core from node_modules with `require`).
 */
import { createRequire } from 'node:module';
import { installNetworkGuard } from '../src/ocr/offline.js';

installNetworkGuard();
createRequire(import.meta.url)('tesseract.js/src/worker-script/node/index.js');
