// The file-level import graph of src/: every relative import, export-from, `import type` and import() of each .ts file.
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** One import edge: the importing file, the imported file (both relative to the repo root, `/`-separated), and whether it is type-only. */
export interface ImportEdge {
  from: string;
  to: string;
  typeOnly: boolean;
}

export interface ImportGraph {
  files: string[];
  edges: ImportEdge[];
}

function listTs(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listTs(path));
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

const toPosix = (p: string): string => p.split(sep).join('/');

/** True when every binding an import or export declaration brings in is type-only (so it is erased from the JavaScript). */
function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    const clause = node.exportClause;
    return !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
  }
  const clause = node.importClause;
  if (!clause) return false; // a side-effect import runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

/** The module specifiers of a file: static imports and re-exports, `import('...')` calls and `import('...').T` types. */
function specifiers(path: string): { spec: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022, true);
  const out: { spec: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push({ spec: node.moduleSpecifier.text, typeOnly: isTypeOnly(node) });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      if (arg && ts.isStringLiteralLike(arg)) out.push({ spec: arg.text, typeOnly: false });
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal)) out.push({ spec: arg.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Builds the graph of `srcDir` (absolute); paths in the result are relative to `root`. Bare specifiers (packages, node:) are left out. */
export function buildImportGraph(root: string, srcDir: string): ImportGraph {
  const files = listTs(srcDir).map((f) => toPosix(relative(root, f))).sort();
  const edges: ImportEdge[] = [];
  for (const file of files) {
    for (const { spec, typeOnly } of specifiers(join(root, file))) {
      if (!spec.startsWith('.')) continue;
      let target = resolve(root, dirname(file), spec);
      if (target.endsWith('.js')) target = target.slice(0, -3) + '.ts';
      if (!existsSync(target) || statSync(target).isDirectory()) {
        if (existsSync(target + '.ts')) target += '.ts';
        else if (existsSync(join(target, 'index.ts'))) target = join(target, 'index.ts');
      }
      // Non-TypeScript files (templates, JSON, assembly) are assets, not layers.
      if (!target.endsWith('.ts')) continue;
      edges.push({ from: file, to: toPosix(relative(root, target)), typeOnly });
    }
  }
  return { files, edges };
}

/** Every elementary cycle found by a depth-first search, each once (as the path from its first node back to it). */
export function findCycles(nodes: string[], edges: { from: string; to: string }[]): string[][] {
  const next = new Map<string, string[]>();
  for (const n of nodes) next.set(n, []);
  for (const e of edges) if (e.from !== e.to) next.get(e.from)?.push(e.to);
  // Tarjan's strongly connected components: a component of more than one node holds a cycle.
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const strong = (v: string): void => {
    indices.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!indices.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component);
    }
  };
  for (const n of nodes) if (!indices.has(n)) strong(n);
  // One concrete cycle per component: a shortest path from its first node back to itself.
  return components.map((component) => {
    const members = new Set(component);
    const start = [...component].sort()[0]!;
    const parent = new Map<string, string>();
    const queue = [start];
    const seen = new Set([start]);
    while (queue.length > 0) {
      const v = queue.shift()!;
      for (const w of next.get(v) ?? []) {
        if (!members.has(w)) continue;
        if (w === start) {
          const path = [v];
          while (path[0] !== start) path.unshift(parent.get(path[0]!)!);
          return [...path, start];
        }
        if (!seen.has(w)) {
          seen.add(w);
          parent.set(w, v);
          queue.push(w);
        }
      }
    }
    return component;
  });
}
