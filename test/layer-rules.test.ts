import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Rules of docs/architecture.md that an import graph cannot see, read from each file's syntax
// tree: a page or component gets its data from a `load…Page` in lib, never from db/queries itself
// (a type it names is fine).

const ROOT = path.resolve(__dirname, '..');
const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', 'app', 'components', 'lib'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && fs.existsSync(path.join(ROOT, f)));

const parse = (file: string, text = fs.readFileSync(path.join(ROOT, file), 'utf8')) =>
  ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);

/** A page, layout or other React file of app/, or any component: what renders, not a route handler. */
const rendersUi = (file: string) => file.startsWith('components/') || (file.startsWith('app/') && file.endsWith('.tsx'));

/** The modules of db/queries a file imports for their values (`import type` and `type` specifiers aside). */
function queryValueImports(source: ts.SourceFile): string[] {
  return source.statements.flatMap((statement) => {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) return [];
    const from = statement.moduleSpecifier.text;
    if (!/^(@\/|(\.\.\/)+)db\/queries(\/|$)/.test(from)) return [];
    const clause = statement.importClause;
    if (!clause) return [from]; // a side-effect import runs the module
    if (clause.isTypeOnly) return [];
    const named = clause.namedBindings;
    const values = Boolean(clause.name) || (named !== undefined && (ts.isNamespaceImport(named) || named.elements.some((e) => !e.isTypeOnly)));
    return values ? [from] : [];
  });
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
  });
});
