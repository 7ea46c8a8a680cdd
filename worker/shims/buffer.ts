// isomorphic-git expects a global Buffer; browsers have none. Import this module first in the worker.
import { Buffer } from 'buffer';

const g = globalThis as { Buffer?: unknown };
if (!g.Buffer) g.Buffer = Buffer;
