// How busy the machine was while a scenario ran, and how much of it was not the benchmark: the CPU time of
// every process (/proc) split into the server, PostgreSQL, this process, and everything else.
import fs from 'node:fs';

/** CPU seconds used so far. */
interface CpuSample {
  at: number;
  machine: number;
  mine: number;
}

const TICKS_PER_SECOND = 100;

function processTicks(pid: number | string): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command name in parentheses: state is field 3, utime 14 and stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

function postgresPids(): string[] {
  const pids: string[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') pids.push(entry);
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

function machineTicks(): number {
  const [cpu] = fs.readFileSync('/proc/stat', 'utf8').split('\n');
  const values = cpu!.trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = values as number[];
  return user! + nice! + system! + irq! + softirq! + steal!;
}

export class CpuMeter {
  readonly #serverPid: number;
  #start: CpuSample | null = null;

  constructor(serverPid: number) {
    this.#serverPid = serverPid;
  }

  #sample(): CpuSample {
    // PostgreSQL backends come and go (the floor's connections): counted while they live.
    const mine = processTicks(this.#serverPid) + processTicks('self') + postgresPids().reduce((sum, pid) => sum + processTicks(pid), 0);
    return { at: performance.now(), machine: machineTicks() / TICKS_PER_SECOND, mine: mine / TICKS_PER_SECOND };
  }

  start(): void {
    if (fs.existsSync('/proc/stat')) this.#start = this.#sample();
  }

  /** CPUs busy on average since start(): in all, and by processes other than the benchmark's. */
  stop(): { busy: number; others: number } {
    if (!this.#start) return { busy: Number.NaN, others: Number.NaN };
    const end = this.#sample();
    const seconds = (end.at - this.#start.at) / 1000;
    const busy = (end.machine - this.#start.machine) / seconds;
    const ours = (end.mine - this.#start.mine) / seconds;
    return { busy, others: Math.max(0, busy - ours) };
  }
}
