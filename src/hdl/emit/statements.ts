// Rebuilds `when`/`switch` structure from a module's branch muxes: decision trees, then if/case statements per process.
import type { Cell, ModuleIR, NetId, SourceLoc } from '../ir/netlist.ts';

/** A target's value as a decision tree over branch-mux selects. */
export type Tree = { readonly k: 'leaf'; readonly net: NetId; readonly loc: SourceLoc } | { readonly k: 'mux'; readonly sel: NetId; readonly a: Tree; readonly b: Tree; readonly loc: SourceLoc };

export type Stmt =
  | { readonly k: 'assign'; readonly target: NetId; readonly value: NetId; readonly loc: SourceLoc }
  | { readonly k: 'if'; readonly cond: readonly Term[]; readonly then: Stmt[]; readonly else: Stmt[]; readonly loc: SourceLoc }
  | { readonly k: 'case'; readonly subject: NetId; readonly items: CaseItem[]; readonly otherwise: Stmt[]; readonly loc: SourceLoc };

/** One conjunct of an `if` condition: a 1-bit net, or its negation. */
export interface Term {
  readonly net: NetId;
  readonly neg: boolean;
}

export interface CaseItem {
  readonly values: readonly bigint[];
  readonly body: Stmt[];
}

/** A tree applied over the target's value so far: leaves equal to `skip` (that value) assign nothing. */
export interface Layer {
  readonly tree: Tree;
  readonly skip?: NetId;
}

/** One target of a process: layers in the order they apply (a default, then each `when` that overrides it). */
export interface ProcessEntry {
  readonly target: NetId;
  readonly layers: readonly Layer[];
}

interface TreeEntry {
  readonly target: NetId;
  readonly tree: Tree;
  readonly skip?: NetId;
}

type BranchMux = Extract<Cell, { op: 'mux' }>;

/** The decision trees of a module: which branch muxes are roots and which fold into their parent's tree. */
export class DecisionTrees {
  private readonly branch = new Map<NetId, BranchMux>();
  /** Nets a branch mux reads as one of its two values (not as its select). */
  private readonly branchValue = new Set<NetId>();

  constructor(
    private readonly mod: ModuleIR,
    private readonly readers: readonly number[],
  ) {
    for (const c of mod.cells) {
      if (c.op !== 'mux' || !c.branch) continue;
      this.branch.set(c.out, c);
      this.branchValue.add(c.a).add(c.b);
    }
  }

  /** A branch mux whose result only its parent branch reads: printed inside the parent's if/else. */
  interior(net: NetId): boolean {
    const n = this.mod.nets[net]!;
    return this.branch.has(net) && !!n.synthesized && n.kind === 'node' && this.readers[net] === 1 && this.branchValue.has(net);
  }

  isBranch(net: NetId): boolean {
    return this.branch.has(net);
  }

  /**
   * `tree` as layers: when one of its leaves is a shared branch root that only this tree reads (an earlier
   * `when` of the same signal), that root's layers come first and this tree only overrides it, so a signal
   * assigned in several `when`s prints as sequential statements in one process. `hold`: a register's own
   * value (assigns nothing). A tree that never holds, with a leaf occurring twice or more, assigns that
   * leaf first as the default and only the other leaves in its branches.
   */
  layers(tree: Tree, hold: NetId | undefined, absorbed: Set<NetId>): Layer[] {
    const base = this.baseOf(tree);
    if (base !== undefined) {
      absorbed.add(base);
      return [...this.layers(this.tree(base), hold, absorbed), { tree, skip: base }];
    }
    if (hold !== undefined && leafCounts(tree).has(hold)) return [{ tree, skip: hold }];
    const common = commonLeaf(tree);
    return common ? [{ tree: common }, { tree, skip: common.net }] : [{ tree }];
  }

  /** The branch root among the leaves whose every reader lies inside `tree`. */
  private baseOf(tree: Tree): NetId | undefined {
    const count = leafCounts(tree);
    let best: NetId | undefined;
    for (const [net, n] of count) {
      const x = this.mod.nets[net]!;
      if (!this.branch.has(net) || !x.synthesized || x.kind !== 'node' || this.interior(net) || this.readers[net] !== n) continue;
      if (best === undefined || n > count.get(best)!) best = net;
    }
    return best;
  }

  /** The tree rooted at branch mux `net`. */
  tree(net: NetId): Tree {
    const c = this.branch.get(net)!;
    const sub = (n: NetId, loc: SourceLoc): Tree => (this.interior(n) ? this.tree(n) : { k: 'leaf', net: n, loc });
    return { k: 'mux', sel: c.sel, a: sub(c.a, c.branch!.aLoc), b: sub(c.b, c.branch!.bLoc), loc: this.mod.nets[c.sel]!.loc };
  }
}

/** How often each leaf net occurs, else-branches first (so ties go to the value of the innermost `otherwise`). */
function leafCounts(tree: Tree, count = new Map<NetId, number>(), first = new Map<NetId, Tree>()): Map<NetId, number> {
  if (tree.k === 'leaf') {
    count.set(tree.net, (count.get(tree.net) ?? 0) + 1);
    if (!first.has(tree.net)) first.set(tree.net, tree);
  } else {
    leafCounts(tree.b, count, first);
    leafCounts(tree.a, count, first);
  }
  return count;
}

/** The leaf that occurs most often in a tree (the value to hoist as a default), if it occurs twice or more. */
function commonLeaf(tree: Tree): Extract<Tree, { k: 'leaf' }> | undefined {
  const first = new Map<NetId, Tree>();
  const count = leafCounts(tree, new Map(), first);
  let best: NetId | undefined;
  let most = 1;
  for (const [net, n] of count) if (n > most) [best, most] = [net, n];
  return best === undefined ? undefined : (first.get(best) as Extract<Tree, { k: 'leaf' }>);
}

/** Nets the layers of an entry read (selects and assigned values; skipped leaves are not read). */
export function layerReads(layers: readonly Layer[]): NetId[] {
  return layers.flatMap((l) => treeReads(l.tree).filter((n) => n !== l.skip));
}

/**
 * The statements of one process: each target's layers in order; layers of several targets that test the same
 * select next are built together, so they share their `if`.
 */
export function buildProcess(entries: readonly ProcessEntry[]): Stmt[] {
  const next = entries.map(() => 0);
  const keyOf = (l: Layer) => (l.tree.k === 'mux' ? l.tree.sel : -1);
  const out: Stmt[] = [];
  for (;;) {
    const i = entries.findIndex((e, k) => next[k]! < e.layers.length);
    if (i < 0) return out;
    const key = keyOf(entries[i]!.layers[next[i]!]!);
    const batch: TreeEntry[] = [];
    // A default whose overrides test this select comes before the shared `if`, its overrides inside it.
    const defaults: TreeEntry[] = [];
    entries.forEach((e, k) => {
      let l = e.layers[next[k]!];
      const after = e.layers[next[k]! + 1];
      if (key !== -1 && l?.tree.k === 'leaf' && after && keyOf(after) === key) {
        defaults.push({ target: e.target, tree: l.tree, skip: l.skip });
        l = e.layers[++next[k]!];
      }
      if (!l || keyOf(l) !== key) return;
      batch.push({ target: e.target, tree: l.tree, skip: l.skip });
      next[k]!++;
    });
    out.push(...buildStatements(defaults), ...buildStatements(batch));
  }
}

/** Nets a tree reads: its selects and leaves. */
export function treeReads(tree: Tree, out: NetId[] = []): NetId[] {
  if (tree.k === 'leaf') out.push(tree.net);
  else {
    out.push(tree.sel);
    treeReads(tree.a, out);
    treeReads(tree.b, out);
  }
  return out;
}

/** Statements for several targets at once: targets testing the same select share one `if`. */
function buildStatements(entries: readonly TreeEntry[]): Stmt[] {
  const out: Stmt[] = [];
  const bySel = new Map<NetId, TreeEntry[]>();
  for (const e of entries) {
    if (e.tree.k === 'leaf') {
      if (e.tree.net !== e.skip) out.push({ k: 'assign', target: e.target, value: e.tree.net, loc: e.tree.loc });
      continue;
    }
    let group = bySel.get(e.tree.sel);
    if (!group) {
      group = [];
      bySel.set(e.tree.sel, group);
      out.push({ k: 'if', cond: [{ net: e.tree.sel, neg: false }], then: [], else: [], loc: e.tree.loc });
    }
    group.push(e);
  }
  const result: Stmt[] = [];
  for (const s of out) {
    if (s.k !== 'if') {
      result.push(s);
      continue;
    }
    const group = bySel.get(s.cond[0]!.net)!;
    const then = buildStatements(group.map((e) => ({ ...e, tree: (e.tree as Extract<Tree, { k: 'mux' }>).a })));
    const otherwise = buildStatements(group.map((e) => ({ ...e, tree: (e.tree as Extract<Tree, { k: 'mux' }>).b })));
    if (then.length || otherwise.length) result.push({ ...s, then, else: otherwise });
  }
  return result;
}

/** `subject == value` (or an `or` of such) over one subject: the values a `case` item lists. */
export interface CaseTest {
  readonly subject: NetId;
  readonly values: bigint[];
}

/**
 * Turns if/else-if chains whose conditions all compare one subject with constants into `case` statements.
 * `test(cond)` recognizes such a condition (only conditions no other logic names or reads qualify).
 */
export function toCase(stmts: readonly Stmt[], test: (cond: NetId) => CaseTest | undefined): Stmt[] {
  return stmts.map((s) => caseOf(s, test));
}

function caseOf(s: Stmt, test: (cond: NetId) => CaseTest | undefined): Stmt {
  if (s.k === 'assign') return s;
  if (s.k === 'case') return s;
  // Follow the else-if chain.
  const arms: { cond: NetId | undefined; body: Stmt[] }[] = [];
  let at: Stmt = s;
  let rest: Stmt[] = [];
  for (;;) {
    const ifs = at as Extract<Stmt, { k: 'if' }>;
    arms.push({ cond: ifs.cond.length === 1 && !ifs.cond[0]!.neg ? ifs.cond[0]!.net : undefined, body: ifs.then });
    const next = ifs.else;
    if (next.length === 1 && next[0]!.k === 'if') at = next[0]!;
    else {
      rest = next;
      break;
    }
  }
  const tests = arms.map((a) => (a.cond === undefined ? undefined : test(a.cond)));
  const subject = tests[0]?.subject;
  const caseable = arms.length >= 2 && subject !== undefined && tests.every((t) => t && t.subject === subject);
  if (!caseable) {
    return { ...s, then: toCase(s.then, test), else: toCase(s.else, test) };
  }
  const otherwise = toCase(rest, test);
  const items: CaseItem[] = [];
  arms.forEach((a, i) => {
    const body = toCase(a.body, test);
    const values = tests[i]!.values;
    // An empty arm matters only when it keeps its values from a later arm or from a default that does something.
    const later = tests.slice(i + 1).some((t) => t!.values.some((v) => values.includes(v)));
    if (body.length || otherwise.length || later) items.push({ values, body });
  });
  return { k: 'case', subject: subject!, items, otherwise, loc: s.loc };
}

/**
 * Flattens what `when` nesting leaves behind: an `if` with nothing to do when its condition holds tests the
 * negation, and an `if` whose only statement is another `if` (neither with an else) tests both at once.
 */
export function simplify(stmts: readonly Stmt[]): Stmt[] {
  return stmts.map(simplifyOne);
}

function simplifyOne(s: Stmt): Stmt {
  if (s.k === 'assign') return s;
  if (s.k === 'case') return { ...s, items: s.items.map((i) => ({ ...i, body: simplify(i.body) })), otherwise: simplify(s.otherwise) };
  let cond = s.cond;
  let then = simplify(s.then);
  let otherwise = simplify(s.else);
  if (!then.length && cond.length === 1) {
    cond = [{ net: cond[0]!.net, neg: !cond[0]!.neg }];
    [then, otherwise] = [otherwise, []];
  }
  const inner = then.length === 1 ? then[0]! : undefined;
  if (!otherwise.length && inner?.k === 'if' && !inner.else.length) return { ...s, cond: [...cond, ...inner.cond], then: inner.then, else: [] };
  return { ...s, cond, then, else: otherwise };
}
