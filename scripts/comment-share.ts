// npm run comments:share [-- --files N] [folder…]: the share of characters that are comments in the
// TypeScript sources git tracks under lib (or the folders named), tests left out, read with the
// TypeScript scanner's comment ranges so that a // inside a string is not one. --files N lists the
// N files with the most comment characters.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import ts from 'typescript';

export interface Share {
  file: string;
  total: number;
  comments: number;
}

/** How many characters of `text` are comments (`//` and block comments), JSDoc included. */
export function commentCharacters(text: string, tsx = false): number {
  const source = ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, true, tsx ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const seen = new Set<number>();
  let comments = 0;
  const visit = (node: ts.Node) => {
    // The words between JSX tags are text, whatever they look like.
    if (ts.isJsxText(node)) return;
    for (const range of [...(ts.getLeadingCommentRanges(text, node.pos) ?? []), ...(ts.getTrailingCommentRanges(text, node.end) ?? [])]) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      comments += range.end - range.pos;
    }
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return comments;
}

export function commentShares(folders: string[]): Share[] {
  return execFileSync('git', ['ls-files', '--', ...folders], { encoding: 'utf8' })
    .split('\n')
    .filter((file) => /\.(ts|tsx|mts|js|mjs)$/.test(file) && !/\.test\.tsx?$/.test(file) && fs.existsSync(file))
    .map((file) => {
      const text = fs.readFileSync(file, 'utf8');
      return { file, total: text.length, comments: commentCharacters(text, file.endsWith('.tsx')) };
    });
}

if (process.argv[1]?.endsWith('comment-share.ts')) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { files: { type: 'string' } } });
  const shares = commentShares(positionals.length > 0 ? positionals : ['lib']);
  const total = shares.reduce((sum, s) => sum + s.total, 0);
  const comments = shares.reduce((sum, s) => sum + s.comments, 0);
  console.log(`${((100 * comments) / Math.max(total, 1)).toFixed(1)} % comments: ${comments} of ${total} characters in ${shares.length} files`);
  for (const s of [...shares].sort((a, b) => b.comments - a.comments).slice(0, Number(values.files ?? 0))) {
    console.log(`${String(s.comments).padStart(7)} ${((100 * s.comments) / s.total).toFixed(0).padStart(3)} %  ${s.file}`);
  }
}
