#!/usr/bin/env python3
"""Checks the relative links of bench/'s markdown, the front page and docs/: every linked file or folder exists, and
every #anchor names a heading of its target, as GitHub makes anchors (lowercase, spaces to hyphens, punctuation and symbols dropped,
-1, -2 ... after repeats). Prints each broken link and exits 1 if there is one.

    python3 bench/check_links.py [FILE.md ...]

(default: bench/NOTES.md bench/README.md bench/data/INDEX.md, the front page README.md and docs/*.md)
"""
import pathlib
import re
import sys
import unicodedata

LINK = re.compile(r'\]\(([^)\s]+)\)')


def slug(title):
    title = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', title).replace('`', '')
    title = re.sub(r'(\*\*|\*)(.+?)\1', r'\2', title).strip().lower()
    kept = (ch for ch in title
            if ch in ' -' or unicodedata.category(ch)[0] in 'LM' or unicodedata.category(ch) in ('Nd', 'Pc'))
    return ''.join(kept).replace(' ', '-')


def anchors(path):
    seen, out, fence = {}, set(), False
    for line in path.read_text().split('\n'):
        if line.startswith('```'):
            fence = not fence
        match = None if fence else re.match(r'(#{1,6}) (.*?)\s*$', line)
        if match:
            base = slug(match.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            out.add(base if count == 0 else f'{base}-{count}')
    return out


def check(path):
    broken = 0
    text = re.sub(r'`[^`\n]*`', '', path.read_text())  # a link inside inline code is not a link
    for target in LINK.findall(text):
        if re.match(r'[a-z]+:', target):
            continue
        name, _, anchor = target.partition('#')
        dest = (path.parent / name).resolve() if name else path
        if not dest.exists():
            print(f'{path}: {target}: no such file')
            broken += 1
        elif anchor and (dest.is_dir() or dest.suffix != '.md' or anchor not in anchors(dest)):
            print(f'{path}: {target}: no heading with that anchor')
            broken += 1
    return broken


if __name__ == '__main__':
    here = pathlib.Path(__file__).resolve().parent
    files = [pathlib.Path(f) for f in sys.argv[1:]] or [
        here / 'NOTES.md', here / 'README.md', here / 'data/INDEX.md', here.parent / 'README.md',
        *sorted((here.parent / 'docs').glob('*.md'))]
    broken = sum(check(f) for f in files if f.exists())
    print(f'{broken} broken link(s) in {", ".join(str(f) for f in files if f.exists())}')
    sys.exit(1 if broken else 0)
