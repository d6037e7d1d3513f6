// Recovers the TypeScript variable a DSL call was assigned to, so generated signals carry the user's names.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as TsMorph from 'ts-morph';
import type { SourceLoc } from '../ir/netlist.ts';
import { contentHash, readCachedValue, writeCachedValue } from '../tools/buildCache.ts';

type Node = TsMorph.Node;
type SourceFile = TsMorph.SourceFile;

/**
 * ts-morph brings the TypeScript compiler, about a second to load: it is loaded on the first name to
 * infer, so that a process that never elaborates (`rtgpu asm`, a test of the ISA simulator) does not pay.
 */
let loaded: typeof TsMorph | undefined;
const tsMorph = (): typeof TsMorph => (loaded ??= createRequire(import.meta.url)('ts-morph') as typeof TsMorph);

export interface InferredName {
  /** The name of the declaration the call initializes, or of the nearest enclosing declaration. */
  readonly name: string;
  /** True when the call's value is assigned to that name directly (not a subexpression of it). */
  readonly exact: boolean;
}

let project: TsMorph.Project | undefined;
const files = new Map<string, SourceFile | null>();

/**
 * The names inferred in one source file, by "line:col", kept in the build cache (kind `names`) under the
 * file's content: a later elaboration reads them instead of parsing the file, and loads the TypeScript
 * compiler only for a file it has not seen with this content.
 */
interface FileNames {
  readonly text: string;
  readonly key: string;
  readonly names: Map<string, InferredName | null>;
  /** Names inferred since it was read or stored. */
  added: boolean;
}
const fileNames = new Map<string, FileNames | null>();

function namesOf(path: string): FileNames | null {
  let f = fileNames.get(path);
  if (f === undefined) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      text = '';
    }
    // The rules of this file are part of what the names mean: a change to it invalidates them.
    const key = contentHash([namingRules(), text]);
    const stored = text === '' ? undefined : (readCachedValue('names', key) as [string, InferredName | null][] | undefined);
    f = text === '' ? null : { text, key, names: new Map(stored ?? []), added: false };
    fileNames.set(path, f);
  }
  return f;
}

let rules: string | undefined;
/** This file's own text, so that names cached under other rules are not used. */
const namingRules = (): string => (rules ??= readFileSync(fileURLToPath(import.meta.url), 'utf8'));

/** Stores the names inferred since the last call (elaborate calls it when it finishes). */
export function storeInferredNames(): void {
  for (const f of fileNames.values()) {
    if (!f?.added) continue;
    writeCachedValue('names', f.key, [...f.names]);
    f.added = false;
  }
}

/** Forgets what this process has read or inferred (a long-running process whose sources changed; tests of the cache). */
export function forgetInferredNames(): void {
  storeInferredNames();
  fileNames.clear();
  files.clear();
}

function sourceFile(path: string, text: string): SourceFile | null {
  let sf = files.get(path);
  if (sf === undefined) {
    try {
      project ??= new (tsMorph().Project)({ useInMemoryFileSystem: true, skipLoadingLibFiles: true });
      sf = project.createSourceFile(path, text, { overwrite: true });
    } catch {
      sf = null;
    }
    files.set(path, sf);
  }
  return sf;
}

// Wrappers that do not change which value a call produces.
let transparentKinds: ReadonlySet<TsMorph.SyntaxKind> | undefined;
function transparent(): ReadonlySet<TsMorph.SyntaxKind> {
  const { SyntaxKind } = tsMorph();
  return (transparentKinds ??= new Set([
    SyntaxKind.ParenthesizedExpression,
    SyntaxKind.AsExpression,
    SyntaxKind.NonNullExpression,
    SyntaxKind.TypeAssertionExpression,
    SyntaxKind.SatisfiesExpression,
    SyntaxKind.AwaitExpression,
  ]));
}

function declaredName(node: Node, child: Node): string | undefined {
  const { Node, SyntaxKind } = tsMorph();
  if (Node.isVariableDeclaration(node) && node.getInitializer() === child) {
    const n = node.getNameNode();
    return Node.isIdentifier(n) ? n.getText() : undefined;
  }
  if ((Node.isPropertyAssignment(node) || Node.isPropertyDeclaration(node)) && node.getInitializer() === child) {
    return node.getName();
  }
  if (Node.isBinaryExpression(node) && node.getOperatorToken().getKind() === SyntaxKind.EqualsToken && node.getRight() === child) {
    const left = node.getLeft();
    if (Node.isIdentifier(left)) return left.getText();
    if (Node.isPropertyAccessExpression(left)) return left.getName();
  }
  return undefined;
}

/** The call expression a stack position points into (V8 points at the callee's name). */
function callAt(sf: SourceFile, loc: SourceLoc): Node | undefined {
  const { Node } = tsMorph();
  let pos: number;
  try {
    pos = sf.compilerNode.getPositionOfLineAndCharacter(loc.line - 1, loc.col - 1);
  } catch {
    return undefined;
  }
  let node: Node | undefined = sf.getDescendantAtPos(pos);
  while (node && !Node.isCallExpression(node) && !Node.isNewExpression(node)) {
    if (Node.isStatement(node) || Node.isSourceFile(node)) return undefined;
    node = node.getParent();
  }
  return node;
}

/** Infer the name for the value produced by the DSL call at `loc`; null when nothing sensible exists. */
export function inferName(loc: SourceLoc): InferredName | null {
  // Column 0: built by the DSL itself (atLocation), where no variable names it.
  if (loc.col === 0 || loc.line <= 0) return null;
  const f = namesOf(loc.file);
  if (f === null) return null;
  const key = `${loc.line}:${loc.col}`;
  const hit = f.names.get(key);
  if (hit !== undefined) return hit;
  let result: InferredName | null = null;
  const sf = sourceFile(loc.file, f.text);
  const call = sf ? callAt(sf, loc) : undefined;
  if (call) {
    const { Node } = tsMorph();
    let child: Node = call;
    let exact = true;
    for (let node = call.getParent(); node && !Node.isSourceFile(node); child = node, node = node.getParent()) {
      const name = declaredName(node, child);
      if (name) {
        result = { name, exact };
        break;
      }
      if (!transparent().has(node.getKind())) exact = false;
      if (Node.isFunctionLikeDeclaration(node) || Node.isClassDeclaration(node)) break;
    }
  }
  f.names.set(key, result);
  f.added = true;
  return result;
}
