// Every library of the bundled benchmark, in build order.
import type { LibraryDefinition } from '../history-dsl.ts';
import { collectkit } from './collectkit/history.ts';
import { csvkit } from './csvkit/history.ts';
import { numkit } from './numkit/history.ts';
import { textkit } from './textkit/history.ts';

export const LIBRARIES: LibraryDefinition[] = [textkit, collectkit, numkit, csvkit];
