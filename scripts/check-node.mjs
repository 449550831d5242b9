// `npm test`'s first step: one line and exit 1 on a Node.js older than the project supports.
import { refuseUnsupportedNode } from './nodeRuntime.mjs';

refuseUnsupportedNode(process.argv[2] ?? 'npm test');
