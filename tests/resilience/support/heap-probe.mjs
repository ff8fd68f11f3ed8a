// Loaded into the server under test only (NODE_OPTIONS=--import), inert until SIGUSR2: then it runs a full
// garbage collection and appends to HEAP_PROBE_FILE, as one JSON line, the memory the process still holds
// (JavaScript heap and memory outside it: buffers). The RSS of a busy server cannot show that: V8 collects its
// garbage lazily, so the RSS of a server that keeps nothing rises and falls by a quarter as it goes.
import fs from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';

const file = process.env.HEAP_PROBE_FILE;
if (file) {
  v8.setFlagsFromString('--expose-gc');
  const collect = vm.runInNewContext('gc');
  process.on('SIGUSR2', () => {
    collect();
    const { heapUsed, external, rss } = process.memoryUsage();
    fs.appendFileSync(file, `${JSON.stringify({ at: Date.now(), heapUsed, external, rss })}\n`);
  });
}
