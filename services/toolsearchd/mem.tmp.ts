import { createActor, fromCallback } from 'xstate';
import { sessionMachine } from './src/session.machine';
import { sessionDescriptor } from './src/session-fixture';
const n = 10000;
const g = global as unknown as { gc: () => void };
const mode = process.argv[2];
const root = createActor(fromCallback(() => () => undefined)); root.start();
const keep: unknown[] = [];
const ds = Array.from({ length: n }, (_, i) => sessionDescriptor('s' + i));
g.gc(); const before = process.memoryUsage().heapUsed;
for (let i = 0; i < n; i++) {
  const a = createActor(sessionMachine, { id: 's' + i, input: { descriptor: ds[i]!, idleMs: mode === 'noidle' ? 1e12 : 600000 }, ...(mode === 'parent' ? { parent: root } : {}) });
  a.start(); keep.push(a);
}
g.gc(); const after = process.memoryUsage().heapUsed;
console.log(mode, ((after - before) / n).toFixed(0), 'bytes/actor', keep.length);
