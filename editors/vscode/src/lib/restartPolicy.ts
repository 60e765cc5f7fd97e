// When to restart a crashed server: at most `limit` restarts within `windowMs`, then give up and say so.

export class RestartPolicy {
  private crashes: number[] = [];
  constructor(private readonly limit = 4, private readonly windowMs = 3 * 60_000) {}

  /** onCrash records a crash at time now and says whether to restart. */
  onCrash(now: number): boolean {
    this.crashes = this.crashes.filter((t) => now - t < this.windowMs);
    this.crashes.push(now);
    return this.crashes.length <= this.limit;
  }

  /** reset forgets past crashes (after a deliberate restart, e.g. a setting change). */
  reset(): void {
    this.crashes = [];
  }
}
