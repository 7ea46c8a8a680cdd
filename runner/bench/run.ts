// node --import tsx runner/bench/run.ts [rounds] [bugId|generated] — prints benchValidation's JSON (the CLI wires `repairlab bench validation`).
import { benchValidation } from './validation.ts';

const rounds = Number(process.argv[2] ?? 5);
const bugId = process.argv[3];
console.log(JSON.stringify(await benchValidation({ rounds, ...(bugId ? { bugId } : {}) }), null, 2));
