// A port of MatchGlob (discovery/registry/glob.go): the subset of VS Code's
// glob semantics that document selectors use. The tests check it against the
// Go test table (glob_test.go) and against minimatch, and then use it to
// check the generated selector on sample paths, Windows paths included.

function expandBraces(p: string): string[] | undefined {
  let start = -1;
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') {
      inClass = true;
    } else if (c === '{') {
      if (depth === 0) start = i;
      depth++;
    } else if (c === '}') {
      depth--;
      if (depth < 0) return undefined;
      if (depth > 0) continue;
      const out: string[] = [];
      for (const alt of splitTopLevel(p.slice(start + 1, i))) {
        const more = expandBraces(p.slice(0, start) + alt + p.slice(i + 1));
        if (more === undefined) return undefined;
        out.push(...more);
      }
      return out;
    }
  }
  return depth === 0 ? [p] : undefined;
}

function splitTopLevel(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let last = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '{') depth++;
    else if (s[i] === '}') depth--;
    else if (s[i] === ',' && depth === 0) {
      parts.push(s.slice(last, i));
      last = i + 1;
    }
  }
  parts.push(s.slice(last));
  return parts;
}

function classesClosed(seg: string): boolean {
  for (let i = 0; i < seg.length; i++) {
    if (seg[i] !== '[') continue;
    let j = i + 1;
    if (seg[j] === '!' || seg[j] === '^') j++;
    if (seg[j] === ']') j++;
    const k = seg.indexOf(']', j);
    if (k < 0) return false;
    i = k;
  }
  return true;
}

/** Matches the class at the start of pat (code points) against r; returns [matched, length]. */
function matchClass(pat: string[], r: string): [boolean, number] {
  let i = 1;
  let negate = false;
  if (pat[i] === '!' || pat[i] === '^') {
    negate = true;
    i++;
  }
  let matched = false;
  for (let first = true; i < pat.length; first = false) {
    if (pat[i] === ']' && !first) return [matched !== negate, i + 1];
    const lo = pat[i++] as string;
    let hi = lo;
    if (i + 1 < pat.length && pat[i] === '-' && pat[i + 1] !== ']') {
      hi = pat[i + 1] as string;
      i += 2;
    }
    const cp = r.codePointAt(0) ?? -1;
    if ((lo.codePointAt(0) ?? 0) <= cp && cp <= (hi.codePointAt(0) ?? 0)) matched = true;
  }
  return [false, pat.length];
}

function matchSegment(patStr: string, sStr: string): boolean {
  const pat = [...patStr];
  const s = [...sStr];
  let px = 0;
  let sx = 0;
  let starPx = -1;
  let starSx = 0;
  while (px < pat.length || sx < s.length) {
    if (px < pat.length) {
      const c = pat[px];
      if (c === '*') {
        starPx = px;
        starSx = sx;
        px++;
        continue;
      } else if (c === '?') {
        if (sx < s.length) {
          px++;
          sx++;
          continue;
        }
      } else if (c === '[') {
        if (sx < s.length) {
          const [ok, n] = matchClass(pat.slice(px), s[sx] as string);
          if (ok) {
            px += n;
            sx++;
            continue;
          }
        }
      } else if (sx < s.length && s[sx] === c) {
        px++;
        sx++;
        continue;
      }
    }
    if (starPx < 0 || starSx >= s.length) return false;
    starSx++;
    px = starPx + 1;
    sx = starSx;
  }
  return true;
}

function matchSegments(pat: string[], path: string[]): boolean {
  if (pat.length === 0) return path.length === 0;
  if (pat[0] === '**') {
    let rest = pat.slice(1);
    while (rest[0] === '**') rest = rest.slice(1);
    for (let i = 0; i <= path.length; i++) if (matchSegments(rest, path.slice(i))) return true;
    return false;
  }
  return path.length > 0 && matchSegment(pat[0] as string, path[0] as string) && matchSegments(pat.slice(1), path.slice(1));
}

/** Whether path matches pattern, as MatchGlob in Go (and VS Code) decides. */
export function matchGlob(pattern: string, path: string): boolean {
  if (pattern === '') return false;
  const alts = expandBraces(pattern);
  if (alts === undefined) return false;
  const segAlts = alts.map((a) => a.split('/'));
  if (!segAlts.every((segs) => segs.every(classesClosed))) return false;
  const parts = path.split(/[/\\]/);
  return segAlts.some((segs) => matchSegments(segs, parts));
}
