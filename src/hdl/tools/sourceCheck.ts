// Checks a user's design and testbench files before they run: TypeScript's own errors, and hardware values used as JavaScript conditions or compared with JavaScript operators.
//
// tsx runs TypeScript without type checking, so a wrong option name or a misspelt method would only
// fail at run time, if at all. Worse, `io.sel ? io.a : io.b` is valid JavaScript: an object is truthy,
// so it silently builds `a`. No runtime hook sees truthiness, so the source is checked with types.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as TsMorph from 'ts-morph';
import { cacheDir, contentHash } from './buildCache.ts';

export interface SourceProblem {
  readonly file: string;
  readonly line: number;
  readonly col: number;
  /** 'TypeScript' for the compiler's errors (with its TSnnnn number in `message`). */
  readonly code: 'TypeScript' | 'JavaScriptOperator';
  readonly message: string;
}

/** The package's root: its own `rtgpu/...` imports resolve here (dist/ when built, else src/). */
const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** A checkout of the repository (tsconfig.json beside src/), rather than the installed package. */
const isCheckout = existsSync(join(packageRoot, 'tsconfig.json'));

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listFiles(join(dir, e.name)) : [join(dir, e.name)])).sort();
}

let loaded: typeof TsMorph | undefined;
const tsMorph = (): typeof TsMorph => (loaded ??= createRequire(import.meta.url)('ts-morph') as typeof TsMorph);

/** The eDSL classes whose instances are hardware values (and the mapped types of bundle values). */
const HARDWARE_CLASSES = new Set(['Bits', 'UInt', 'SInt', 'Bool', 'EnumValue', 'VecValue']);
const HARDWARE_ALIASES = new Set(['BundleValue', 'DecoupledValue']);

/** Where the eDSL declares its values: a type declared elsewhere with the same name is the user's own. */
const isEdslDeclaration = (file: string) => /[/\\]hdl[/\\]core[/\\](values|aggregates)\.(ts|d\.ts)$/.test(file);

/**
 * TypeScript errors in `files` (and the local files they import), and every hardware value used as a
 * JavaScript condition (`?:`, `if`, `while`, `for`, `&&`, `||`, `!`) or with a JavaScript
 * comparison (`===`, `!==`, `==`, `!=`, `<`, `<=`, `>`, `>=`). Results are cached by the files' contents.
 */
export function checkSources(files: readonly string[]): SourceProblem[] {
  const paths = files.map((f) => resolve(f));
  const key = contentHash([packageIdentity(), ...localClosure(paths).flatMap((p) => [p, readFileSync(p, 'utf8')])]);
  const cached = join(cacheDir('source-check', key), 'problems.json');
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, 'utf8')) as SourceProblem[];
  const problems = checkUncached(paths);
  mkdirSync(dirname(cached), { recursive: true });
  const tmp = `${cached}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(problems));
  renameSync(tmp, cached);
  return problems;
}

/** The package's code and TypeScript's version: a new release of either may change the answer. */
function packageIdentity(): string {
  const pkg = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string };
  // ts-morph's own TypeScript (typescript itself is only a development dependency of this package).
  const tsVersion = tsMorph().ts.version;
  // In a checkout the sources change without a version bump: every source file's size and time is part of the key.
  const checkout = isCheckout ? contentHash(listFiles(join(packageRoot, 'src')).map((f) => `${f} ${statSync(f).size} ${statSync(f).mtimeMs}`)) : '';
  const checker = contentHash([readFileSync(fileURLToPath(import.meta.url), 'utf8')]);
  return `${pkg.version} ${tsVersion} ${checkout} ${checker}`;
}

/** The files and the relative imports they reach, transitively (found by their specifiers; node_modules is not followed). */
function localClosure(paths: readonly string[]): string[] {
  const seen = new Set<string>();
  const work = [...paths];
  while (work.length) {
    const p = work.pop()!;
    if (seen.has(p) || !existsSync(p)) continue;
    seen.add(p);
    const text = readFileSync(p, 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = resolve(dirname(p), m[1]!);
      for (const candidate of [target, target.replace(/\.js$/, '.ts'), `${target}.ts`, join(target, 'index.ts')]) {
        if (existsSync(candidate) && !candidate.includes(`${sep}node_modules${sep}`)) {
          work.push(candidate);
          break;
        }
      }
    }
  }
  return [...seen].sort();
}

function checkUncached(paths: readonly string[]): SourceProblem[] {
  const { Project, ts } = tsMorph();
  const project = new Project({ compilerOptions: compilerOptions(ts), skipAddingFilesFromTsConfig: true });
  const sources = paths.map((p) => project.addSourceFileAtPath(p));
  project.resolveSourceFileDependencies();
  // The user's files, not the libraries' (ts-morph spells paths with '/').
  const own = (f: string) => !f.includes('/node_modules/') && !f.startsWith(`${packageRoot}/src/`) && !f.startsWith(`${packageRoot}/dist/`);
  const userFiles = project.getSourceFiles().filter((sf) => own(sf.getFilePath()) || sources.includes(sf));
  const problems: SourceProblem[] = [];
  const checker = project.getTypeChecker();
  for (const sf of userFiles) {
    for (const d of sf.getPreEmitDiagnostics()) {
      if (d.getCategory() !== ts.DiagnosticCategory.Error) continue;
      const at = d.getSourceFile() ?? sf;
      const { line, column } = at.getLineAndColumnAtPos(d.getStart() ?? 0);
      const text = ts.flattenDiagnosticMessageText(d.getMessageText() as string | TsMorph.ts.DiagnosticMessageChain, ' ');
      problems.push({ file: at.getFilePath(), line, col: column, code: 'TypeScript', message: `TS${d.getCode()}: ${text}` });
    }
    for (const node of jsMisuses(sf, checker)) {
      const { line, column } = sf.getLineAndColumnAtPos(node.node.getStart());
      problems.push({ file: sf.getFilePath(), line, col: column, code: 'JavaScriptOperator', message: node.message });
    }
  }
  // A file imported by two of the given ones is checked once; a diagnostic may still come twice.
  const unique = new Map(problems.map((p) => [`${p.file}:${p.line}:${p.col}:${p.message}`, p]));
  return [...unique.values()].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col);
}

/**
 * The options of the user's tsconfig.json are not read (it may not exist, or target a bundler): design
 * files are ES modules for Node, checked strictly. `rtgpu/...` resolves to this package as the loader does.
 */
function compilerOptions(ts: typeof TsMorph.ts): TsMorph.CompilerOptions {
  // As bin/rtgpu.mjs runs it: a checkout runs its sources (a dist/ there may be stale), an installed package dist/.
  const entry = (layer: string) => (isCheckout ? join(packageRoot, 'src', layer, 'index.ts') : join(packageRoot, 'dist', layer, 'index.d.ts'));
  const layers = ['hdl', 'hdl/lib', 'hdl/sim', 'hdl/testbench', 'hdl/cosim', 'hdl/synth', 'gpu', 'isa', 'host', 'golden', 'bvh'];
  return {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
    allowJs: true,
    resolveJsonModule: true,
    esModuleInterop: true,
    paths: Object.fromEntries(layers.map((l) => [`rtgpu/${l}`, [entry(l)]])),
  };
}

/**
 * Is this type a hardware value of the eDSL (a union: every member)? A type that may be undefined or
 * null is not: testing it (`if (port)`, `port ?? fallback`) is a fair JavaScript question.
 */
function isHardware(type: TsMorph.Type): boolean {
  if (type.isUnion()) return type.getUnionTypes().every(isHardware);
  const alias = type.getAliasSymbol();
  if (alias && HARDWARE_ALIASES.has(alias.getName()) && alias.getDeclarations().some((d) => isEdslDeclaration(d.getSourceFile().getFilePath()))) return true;
  const classes: TsMorph.Type[] = [type];
  for (let i = 0; i < classes.length && i < 16; i++) {
    const t = classes[i]!;
    const sym = t.getSymbol();
    if (sym && HARDWARE_CLASSES.has(sym.getName()) && sym.getDeclarations().some((d) => isEdslDeclaration(d.getSourceFile().getFilePath()))) return true;
    classes.push(...t.getBaseTypes());
  }
  return false;
}

interface Misuse {
  readonly node: TsMorph.Node;
  readonly message: string;
}

/** Per JavaScript construct, the eDSL call that builds it in hardware. */
const CONDITION_ADVICE: Record<string, string> = {
  '?:': 'use mux(cond, a, b)',
  if: 'use m.when(cond, () => …).elsewhen(…).otherwise(…)',
  loop: 'a loop runs while elaborating, so its condition must be a JavaScript value; for hardware that iterates, use a register and m.when',
  '&&': 'use a.and(b)',
  '||': 'use a.or(b)',
  '!': 'use x.not()',
};

/** Hardware values in JavaScript conditions and comparisons, in source order. */
function jsMisuses(sf: TsMorph.SourceFile, checker: TsMorph.TypeChecker): Misuse[] {
  const { Node, SyntaxKind } = tsMorph();
  const out: Misuse[] = [];
  const hw = (n: TsMorph.Node | undefined): n is TsMorph.Node => n !== undefined && isHardware(checker.getTypeAtLocation(n));
  const condition = (n: TsMorph.Node | undefined, construct: keyof typeof CONDITION_ADVICE) => {
    if (hw(n)) out.push({ node: n, message: `a hardware value is used as a JavaScript condition (${construct}), where any object counts as true, so this builds no hardware choice: ${CONDITION_ADVICE[construct]}` });
  };
  const comparisons: Partial<Record<number, string>> = {
    [SyntaxKind.EqualsEqualsEqualsToken]: '.eq()',
    [SyntaxKind.EqualsEqualsToken]: '.eq()',
    [SyntaxKind.ExclamationEqualsEqualsToken]: '.ne()',
    [SyntaxKind.ExclamationEqualsToken]: '.ne()',
    [SyntaxKind.LessThanToken]: '.lt()',
    [SyntaxKind.LessThanEqualsToken]: '.le()',
    [SyntaxKind.GreaterThanToken]: '.gt()',
    [SyntaxKind.GreaterThanEqualsToken]: '.ge()',
  };
  sf.forEachDescendant((node) => {
    if (Node.isConditionalExpression(node)) condition(node.getCondition(), '?:');
    else if (Node.isIfStatement(node)) condition(node.getExpression(), 'if');
    else if (Node.isWhileStatement(node) || Node.isDoStatement(node)) condition(node.getExpression(), 'loop');
    else if (Node.isForStatement(node)) condition(node.getCondition(), 'loop');
    else if (Node.isPrefixUnaryExpression(node) && node.getOperatorToken() === SyntaxKind.ExclamationToken) condition(node.getOperand(), '!');
    else if (Node.isBinaryExpression(node)) {
      const kind = node.getOperatorToken().getKind();
      if (kind === SyntaxKind.AmpersandAmpersandToken || kind === SyntaxKind.BarBarToken) {
        condition(node.getLeft(), kind === SyntaxKind.AmpersandAmpersandToken ? '&&' : '||');
      } else if (comparisons[kind] && (hw(node.getLeft()) || hw(node.getRight()))) {
        // `x === undefined` on an optional port is a JavaScript question about the port, not about its value.
        const other = hw(node.getLeft()) ? node.getRight() : node.getLeft();
        if (other.getKind() === SyntaxKind.UndefinedKeyword || other.getText() === 'undefined' || other.getKind() === SyntaxKind.NullKeyword) return;
        const both = hw(node.getLeft()) && hw(node.getRight());
        // Whether two values are the same object is a fair question of a generator; == between them only looks like a comparator.
        if (both && (kind === SyntaxKind.EqualsEqualsEqualsToken || kind === SyntaxKind.ExclamationEqualsEqualsToken)) return;
        if (both && (kind === SyntaxKind.EqualsEqualsToken || kind === SyntaxKind.ExclamationEqualsToken)) {
          out.push({ node, message: `${node.getOperatorToken().getText()} compares two hardware values as JavaScript objects (are they the same object?), not their values: use ${comparisons[kind]} to build a comparator` });
          return;
        }
        out.push({ node, message: `${node.getOperatorToken().getText()} on a hardware value is a JavaScript comparison that builds no hardware: use ${comparisons[kind]}` });
      }
    }
  });
  return out;
}
