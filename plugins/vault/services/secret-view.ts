// The PostgreSQL server's synchronous view of the stored secrets' plaintexts (issue 25). Two
// vault members answer synchronously because the interfaces they serve are synchronous: the
// value list the host's redaction searches (called inside other plugins' synchronous writes)
// and `VAULT_SECRETS.get`/`has` (publishing's, terminal's and the messenger's credential
// lookups). On SQLite they read the shared connection; PostgreSQL cannot be read
// synchronously, so there they answer from this view:
// - loaded at start-up, once the key is unlocked, in one step with the key id check;
// - changed by this process's own atomic steps: a saved value enters the view inside its step,
//   before the commit (redaction may hide a value a moment early, never late) and leaves it
//   again if the step rolls back; a deleted one leaves it after the commit;
// - reloaded from the database every VIEW_REFRESH_MS for what other processes change (another
//   instance's save, a deletion, `muster vault rotate`: the re-keyed id locks the vault).

/** A secret the view holds: its id and plaintext, or `null` when its stored seal does not authenticate (reported when read). */
export interface SecretEntry {
  id: string;
  value: string | null;
}

export class SecretView {
  private readonly entries = new Map<string, { entry: SecretEntry; generation: number }>();
  /** The redaction's list, rebuilt lazily after a change. */
  private valueList: { name: string; value: string }[] | null = null;
  /** Counts this process's changes: a reload started before one is not applied over it. */
  private generation = 0;
  /** Whether a load was applied: until then the view knows nothing, and must not be taken for an empty vault. */
  loaded = false;

  get(name: string): SecretEntry | undefined {
    return this.entries.get(name)?.entry;
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Every readable value, for redaction (a secret that does not authenticate has none to leak). */
  values(): { name: string; value: string }[] {
    if (!this.valueList) {
      this.valueList = [];
      for (const [name, { entry }] of this.entries) if (entry.value !== null) this.valueList.push({ name, value: entry.value });
    }
    return this.valueList;
  }

  /** A step's new value, seen at once; the returned undo restores what was there, unless a later change came since. */
  put(name: string, entry: SecretEntry): () => void {
    const previous = this.entries.get(name);
    const generation = this.change();
    this.entries.set(name, { entry, generation });
    return () => {
      if (this.entries.get(name)?.generation !== generation) return;
      this.change();
      if (previous) this.entries.set(name, previous);
      else this.entries.delete(name);
    };
  }

  /** Where `name` stands now; pass it to {@link forget} after the deleting step commits. */
  generationOf(name: string): number | undefined {
    return this.entries.get(name)?.generation;
  }

  /** Drops `name` after its deletion committed, unless a later change (a new save) came since. */
  forget(name: string, generation: number | undefined): void {
    if (this.entries.get(name)?.generation !== generation) return;
    this.change();
    this.entries.delete(name);
  }

  /** Where the whole view stands: give it to {@link replace} with what a reload started now reads. */
  version(): number {
    return this.generation;
  }

  /** The view as a reload read it, unless this process changed a secret meanwhile (the next reload then applies). */
  replace(entries: ReadonlyMap<string, SecretEntry>, version: number): boolean {
    if (version !== this.generation) return false;
    const generation = this.change();
    this.entries.clear();
    for (const [name, entry] of entries) this.entries.set(name, { entry, generation });
    this.loaded = true;
    return true;
  }

  clear(): void {
    this.change();
    this.entries.clear();
    this.loaded = false;
  }

  private change(): number {
    this.valueList = null;
    return ++this.generation;
  }
}
