import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Rules of docs/architecture.md that an import graph cannot see, read from each file's syntax
// tree: a page or component gets its data from a `load…Page` in lib, never from db/queries itself
// (a type it names is fine); and every state change runs in the unit of work (`inTransaction`),
// so an event or e-mail it records is written with it, with no write of the change beside it, and
// sent only after it commits.

const ROOT = path.resolve(__dirname, '..');
const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', 'app', 'components', 'lib', 'db/queries'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && fs.existsSync(path.join(ROOT, f)));

const parse = (file: string, text = fs.readFileSync(path.join(ROOT, file), 'utf8')) =>
  ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);

/** A page, layout or other React file of app/, or any component: what renders, not a route handler. */
const rendersUi = (file: string) => file.startsWith('components/') || (file.startsWith('app/') && file.endsWith('.tsx'));

const QUERIES = /^(@\/|(\.\.\/)+)db\/queries(\/|$)/;

/** The modules of db/queries a file imports or re-exports for their values (`import type` and `type` specifiers aside), `import()` included. */
function queryValueImports(source: ts.SourceFile): string[] {
  const dynamic = nodesOf(source).flatMap((n) =>
    ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteral(n.arguments[0]) && QUERIES.test(n.arguments[0].text) ? [n.arguments[0].text] : [],
  );
  return [...dynamic, ...source.statements.flatMap((statement) => {
    if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) && QUERIES.test(statement.moduleSpecifier.text)) {
      const clause = statement.exportClause;
      const values = !statement.isTypeOnly && (!clause || !ts.isNamedExports(clause) || clause.elements.some((e) => !e.isTypeOnly));
      return values ? [statement.moduleSpecifier.text] : [];
    }
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) return [];
    const from = statement.moduleSpecifier.text;
    if (!QUERIES.test(from)) return [];
    const clause = statement.importClause;
    if (!clause) return [from]; // a side-effect import runs the module
    if (clause.isTypeOnly) return [];
    const named = clause.namedBindings;
    const values = Boolean(clause.name) || (named !== undefined && (ts.isNamespaceImport(named) || named.elements.some((e) => !e.isTypeOnly)));
    return values ? [from] : [];
  })];
}

describe('pages and components', () => {
  it('reads the files it should', () => {
    expect(files.filter(rendersUi).length).toBeGreaterThan(40);
    expect(files).toEqual(expect.arrayContaining(['app/portal/(app)/activity/page.tsx', 'components/portal/customer-side.tsx']));
  });

  it('import no db/queries for its values: a page loads through lib', () => {
    const offending = files.filter(rendersUi).flatMap((file) => queryValueImports(parse(file)).map((from) => `${file} -> ${from}`));
    expect(offending).toEqual([]);
  });

  it('tells a value import from a type-only one', () => {
    const sample = (text: string) => queryValueImports(parse('x.tsx', text));
    expect(sample("import { listPlans } from '@/db/queries/activity';")).toEqual(['@/db/queries/activity']);
    expect(sample("import { type RenewalRow, getOverview } from '@/db/queries/overview';")).toEqual(['@/db/queries/overview']);
    expect(sample("import * as q from '../../db/queries/plans';")).toEqual(['../../db/queries/plans']);
    expect(sample("import type { RenewalRow } from '@/db/queries/overview';")).toEqual([]);
    expect(sample("import { type RenewalRow } from '@/db/queries/overview';")).toEqual([]);
    expect(sample("import { getDb } from '@/db/client';")).toEqual([]);
    expect(sample("export { listPlans } from '@/db/queries/activity';")).toEqual(['@/db/queries/activity']);
    expect(sample("export type { RenewalRow } from '@/db/queries/overview';")).toEqual([]);
    expect(sample("const q = await import('@/db/queries/plans');")).toEqual(['@/db/queries/plans']);
  });
});

/** Every node of a tree, depth first. */
function nodesOf(root: ts.Node): ts.Node[] {
  const all: ts.Node[] = [];
  const walk = (node: ts.Node) => {
    all.push(node);
    node.forEachChild(walk);
  };
  walk(root);
  return all;
}

const calleeName = (call: ts.CallExpression) =>
  ts.isIdentifier(call.expression) ? call.expression.text : ts.isPropertyAccessExpression(call.expression) ? call.expression.name.text : '';
const isFunction = (node: ts.Node | undefined): node is ts.ArrowFunction | ts.FunctionExpression =>
  node !== undefined && (ts.isArrowFunction(node) || ts.isFunctionExpression(node));

/** Calls that open a database transaction of their own: `x.transaction(fn)` (Wompi's `client.transaction(id)` takes an id). */
const plainTransactions = (source: ts.SourceFile) =>
  nodesOf(source).filter((n): n is ts.CallExpression => ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && calleeName(n) === 'transaction' && isFunction(n.arguments[0]));

/** `inTransaction(db, (tx, outbox) => …)` whose callback names `db`: a statement sent outside the unit of work. */
const outerHandleInside = (source: ts.SourceFile) =>
  nodesOf(source)
    .filter((n): n is ts.CallExpression => ts.isCallExpression(n) && calleeName(n) === 'inTransaction' && ts.isIdentifier(n.arguments[0]!) && isFunction(n.arguments[1]))
    .filter((call) => {
      const outer = (call.arguments[0] as ts.Identifier).text;
      return nodesOf(call.arguments[1]!).some((n) => ts.isIdentifier(n) && n.text === outer && !(ts.isPropertyAccessExpression(n.parent) && n.parent.name === n));
    });

/** The exported functions of db/queries whose text matches `pattern`. */
function queriesMatching(pattern: RegExp): string[] {
  return files
    .filter((f) => f.startsWith('db/queries/'))
    .flatMap((file) =>
      parse(file).statements.filter(
        (st): st is ts.FunctionDeclaration =>
          ts.isFunctionDeclaration(st) && Boolean(st.name) && Boolean(st.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) && pattern.test(st.getText()),
      ),
    )
    .map((fn) => fn.name!.text);
}

/** Those that insert into the tables the unit of work hands off (e-mails, webhook events). */
const recordingQueries = () => queriesMatching(/\.insert\((emails|webhookEvents)\)/);

/** Those that write (insert, update or delete), directly or through updateInStatus (db/queries/update-in-status.ts). */
const writingQueries = () => queriesMatching(/\.(insert|update|delete)\(|\bupdateInStatus\(|\b(INSERT INTO|UPDATE|DELETE FROM) /);

/** Names a file imports for their values from db/queries. */
const importedQueryNames = (source: ts.SourceFile) =>
  source.statements.flatMap((st) =>
    ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier) && st.moduleSpecifier.text.startsWith('@/db/queries/') && !st.importClause?.isTypeOnly && st.importClause?.namedBindings && ts.isNamedImports(st.importClause.namedBindings)
      ? st.importClause.namedBindings.elements.filter((e) => !e.isTypeOnly).map((e) => (e.propertyName ?? e.name).text)
      : [],
  );

/** The functions of a file that call one of `names`, each with whether it takes an Outbox. */
function callersOf(source: ts.SourceFile, names: string[]) {
  const fns = nodesOf(source).filter((n): n is ts.FunctionDeclaration | ts.ArrowFunction | ts.FunctionExpression | ts.MethodDeclaration => ts.isFunctionLike(n) && 'body' in n && Boolean(n.body));
  return fns
    .filter((fn) => nodesOf(fn.body!).some((n) => ts.isCallExpression(n) && names.includes(calleeName(n)) && n.expression.getText() === calleeName(n)))
    .filter((fn) => !fns.some((inner) => inner !== fn && fn.body!.pos <= inner.pos && inner.end <= fn.body!.end && nodesOf(inner.body!).some((n) => ts.isCallExpression(n) && names.includes(calleeName(n)))))
    .map((fn) => ({ name: (fn.name?.getText() ?? '(anonymous)'), takesOutbox: fn.parameters.some((p) => p.type?.getText() === 'Outbox') }));
}

const lib = files.filter((f) => /^(app|components|lib)\//.test(f));

/**
 * Writes a function makes beside the unit of work it records an event or e-mail in: a call of
 * one of `writes` outside the `inTransaction` callback that takes an outbox. Such a write would
 * commit apart from what tells of it (the webhook retries once disabled an endpoint so).
 */
function writesBesideUnitOfWork(source: ts.SourceFile, writes: string[]): string[] {
  const isRecordingUnit = (n: ts.Node): n is ts.CallExpression => ts.isCallExpression(n) && calleeName(n) === 'inTransaction' && isFunction(n.arguments[1]) && n.arguments[1].parameters.length >= 2;
  const fns = nodesOf(source).filter((n): n is ts.FunctionDeclaration | ts.ArrowFunction | ts.FunctionExpression | ts.MethodDeclaration => ts.isFunctionLike(n) && 'body' in n && Boolean(n.body));
  return fns.flatMap((fn) => {
    const units = nodesOf(fn.body!).filter(isRecordingUnit);
    if (units.length === 0) return [];
    const inside = (n: ts.Node) => units.some((u) => u.arguments[1]!.pos <= n.pos && n.end <= u.arguments[1]!.end);
    return nodesOf(fn.body!)
      .filter((n): n is ts.CallExpression => ts.isCallExpression(n) && writes.includes(calleeName(n)) && n.expression.getText() === calleeName(n) && !inside(n))
      .map((call) => `${fn.name?.getText() ?? '(anonymous)'}: ${call.getText().split('\n')[0]}`);
  });
}

describe('the unit of work', () => {
  it('is the only place a transaction opens: every state change runs in inTransaction', () => {
    const offending = lib.filter((f) => f !== 'lib/unit-of-work.ts').flatMap((file) => plainTransactions(parse(file)).map((call) => `${file}: ${call.getText().split('\n')[0]}`));
    expect(offending).toEqual([]);
  });

  it('makes the only outbox: an event or e-mail is recorded inside inTransaction or nowhere', () => {
    const offending = lib.filter((f) => f !== 'lib/unit-of-work.ts' && /\bnew Outbox\(/.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));
    expect(offending).toEqual([]);
  });

  it('writes events and e-mails only through recorders that note them in the outbox', () => {
    const queries = recordingQueries();
    expect(queries).toEqual(expect.arrayContaining(['insertEmail', 'insertWebhookEvent']));
    const importers = lib.filter((file) => importedQueryNames(parse(file)).some((name) => queries.includes(name)));
    expect(importers.sort()).toEqual(['lib/email/record.ts', 'lib/webhooks/events.ts']);
    const withoutOutbox = importers.flatMap((file) => callersOf(parse(file), queries).filter((fn) => !fn.takesOutbox).map((fn) => `${file}: ${fn.name}`));
    expect(withoutOutbox).toEqual([]);
  });

  it('sends nothing of a unit of work through the handle outside it', () => {
    const offending = lib.flatMap((file) => outerHandleInside(parse(file)).map((call) => `${file}: ${call.getText().split('\n')[0]}`));
    expect(offending).toEqual([]);
  });

  it('writes nothing beside a unit of work that records an event or e-mail', () => {
    const writes = writingQueries();
    expect(writes).toEqual(expect.arrayContaining(['transitionPlan', 'insertEmail', 'insertWebhookEvent']));
    const offending = lib.flatMap((file) => {
      const source = parse(file);
      const imported = importedQueryNames(source).filter((name) => writes.includes(name));
      return writesBesideUnitOfWork(source, imported).map((breach) => `${file}: ${breach}`);
    });
    expect(offending).toEqual([]);
  });

  it('tells the breaches it looks for', () => {
    const beside = writesBesideUnitOfWork(
      parse('x.ts', 'async function disable(db: Db, id: string) {\n  await disableEndpoint(db, id);\n  await inTransaction(db, async (tx, outbox) => { await queueEmail(tx, outbox, e); });\n}\nasync function fine(db: Db) {\n  await inTransaction(db, async (tx, outbox) => { await disableEndpoint(tx, id); await queueEmail(tx, outbox, e); });\n}'),
      ['disableEndpoint'],
    );
    expect(beside).toEqual(['disable: disableEndpoint(db, id)']);
    const sample = (text: string) => parse('x.ts', text);
    expect(plainTransactions(sample('await db.transaction(async (tx) => { await lockPlan(tx, id); });'))).toHaveLength(1);
    expect(plainTransactions(sample('await client.transaction(gatewayId);'))).toHaveLength(0);
    expect(outerHandleInside(sample('await inTransaction(db, async (tx, outbox) => { await disableEndpoint(db, id); });'))).toHaveLength(1);
    expect(outerHandleInside(sample('await inTransaction(db, async (tx, outbox) => { await disableEndpoint(tx, id); log(x.db); });'))).toHaveLength(0);
    const callers = callersOf(sample('async function a(tx: Db, outbox: Outbox) { await insertEmail(tx, e); }\nasync function b(tx: Db) { await insertEmail(tx, e); }'), ['insertEmail']);
    expect(callers).toEqual([
      { name: 'a', takesOutbox: true },
      { name: 'b', takesOutbox: false },
    ]);
  });
});
