/**
 * Test support: the import graph of the sources, read with the TypeScript parser, and a walk from the production
 * entry points that reports every path reaching test support or a test-only package. Holds the rule "product
 * code never imports testing/ folders, tests, fixtures/ or the official SDKs" over what lint cannot see
 * (dynamic `import()`, `require`, worker files named by `new URL(..., import.meta.url)`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { posix } from 'node:path';
import ts from 'typescript';

/** Every module specifier a source names: static and type-only imports, `export ... from`, `import()`,
 * `require()` and `require.resolve()` with a literal, and `new URL('<literal>', import.meta.url)`. */
export function moduleSpecifiers(fileName: string, source: string): string[] {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node)) {
      const [arg] = node.arguments;
      const callee = node.expression;
      const isImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require';
      const isResolve = ts.isPropertyAccessExpression(callee) && callee.name.text === 'resolve' && ts.isIdentifier(callee.expression) && callee.expression.text === 'require';
      if ((isImport || isRequire || isResolve) && arg && ts.isStringLiteralLike(arg)) out.push(arg.text);
    } else if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'URL') {
      const [arg, base] = node.arguments ?? [];
      if (arg && base && ts.isStringLiteralLike(arg) && base.getText(sf) === 'import.meta.url' && arg.text.startsWith('.')) out.push(arg.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** One edge target: a repository file (posix path from the root) or a package name. */
export type Target = { readonly kind: 'file'; readonly path: string } | { readonly kind: 'package'; readonly name: string };

/** Resolves a specifier of `from` (a root-relative .ts path): relative ones to the .ts source, bare ones to the
 * package name (`@scope/name` or `name`); Node built-ins resolve to nothing. */
export function resolveSpecifier(from: string, spec: string): Target | null {
  if (spec.startsWith('.')) {
    const joined = posix.normalize(posix.join(posix.dirname(from), spec));
    return { kind: 'file', path: joined.endsWith('.js') ? `${joined.slice(0, -3)}.ts` : joined };
  }
  if (spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0] as string)) return null;
  const parts = spec.split('/');
  return { kind: 'package', name: spec.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string) };
}

/** A forbidden target reached from an entry, with the import chain that reaches it (entry first). */
export interface Violation {
  readonly target: string;
  readonly reason: string;
  readonly chain: readonly string[];
}

/** What a walk needs: the specifiers of a file (null when the file does not exist), and the forbidden test. */
export interface GraphSource {
  specifiers(file: string): readonly string[] | null;
  forbidden(target: Target): string | null;
}

/** Breadth-first walk from `entries`; every file reached and every violation, each with its shortest chain. */
export function walkImports(entries: readonly string[], src: GraphSource): { reached: Set<string>; violations: Violation[]; missing: string[] } {
  const parent = new Map<string, string | null>();
  const violations: Violation[] = [];
  const missing: string[] = [];
  const chainOf = (file: string): string[] => {
    const chain: string[] = [];
    for (let f: string | null | undefined = file; f != null; f = parent.get(f)) chain.unshift(f);
    return chain;
  };
  const queue: string[] = [];
  for (const e of entries) {
    if (!parent.has(e)) {
      parent.set(e, null);
      queue.push(e);
    }
  }
  const seenPackages = new Set<string>();
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i] as string;
    const reason = src.forbidden({ kind: 'file', path: file });
    if (reason) violations.push({ target: file, reason, chain: chainOf(file) });
    const specs = src.specifiers(file);
    if (specs === null) {
      missing.push(file);
      continue;
    }
    for (const spec of specs) {
      const t = resolveSpecifier(file, spec);
      if (t === null) continue;
      if (t.kind === 'package') {
        const why = src.forbidden(t);
        const key = `${file}\0${t.name}`;
        if (why && !seenPackages.has(key)) {
          seenPackages.add(key);
          violations.push({ target: t.name, reason: why, chain: [...chainOf(file), t.name] });
        }
      } else if (!parent.has(t.path)) {
        parent.set(t.path, file);
        queue.push(t.path);
      }
    }
  }
  return { reached: new Set(parent.keys()), violations, missing };
}

/** Scopes of the official DEX SDKs, forbidden in product code even when not (yet) a dependency. */
export const SDK_SCOPES: readonly string[] = ['@raydium-io', '@pump-fun', '@meteora-ag', '@coral-xyz', '@orca-so'];

/** The forbidden test of the product graph: test support files and test-only packages (the SDK scopes and every
 * devDependency of package.json but types, compiler and linter). */
export function productRules(devDependencies: readonly string[]): GraphSource['forbidden'] {
  const devOnly = new Set(devDependencies.filter((n) => !/^(@types\/|typescript$|typescript-eslint$|eslint$)/.test(n)));
  return (t) => {
    if (t.kind === 'package') {
      if (SDK_SCOPES.some((s) => t.name.startsWith(`${s}/`))) return 'official DEX SDK';
      return devOnly.has(t.name) ? 'devDependency (test/bench tool)' : null;
    }
    const segments = t.path.split('/');
    if (segments.includes('testing')) return 'testing/ folder';
    if (segments[0] === 'fixtures') return 'fixtures/';
    if (/\.test\.ts$/.test(t.path)) return 'test file';
    return null;
  };
}

/** The graph source over the repository's .ts files under `root`. */
export function repoGraph(root: string): GraphSource {
  const pkg = JSON.parse(readFileSync(posix.join(root, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
  return {
    specifiers(file) {
      const abs = posix.join(root, file);
      if (!existsSync(abs)) return null;
      return file.endsWith('.ts') ? moduleSpecifiers(file, readFileSync(abs, 'utf8')) : [];
    },
    forbidden: productRules(Object.keys(pkg.devDependencies ?? {})),
  };
}
