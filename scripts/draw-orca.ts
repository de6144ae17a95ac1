/**
 * Draws docs/orca.svg, the picture of docs/agents.md#avoidance: in the plane of velocities, the
 * velocity obstacle of walker A toward walker B (the velocities that bring their discs together
 * within the time horizon: a cone cut off by a disc) and the half-plane of velocities A may
 * choose. Run: node --import tsx scripts/draw-orca.ts
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The scene, in cells and seconds: B 3 cells ahead of A and a little aside, both discs of
// radius 0.5 (so R, the sum, is 1); A and B walk toward each other at 1.2 cells per second, so
// v, A's velocity relative to B, is 2.4 cells per second; horizon 2 s.
const p = { x: 3, y: -0.3 };
const R = 1;
const tau = 2;
const v = { x: 2.4, y: 0 };

const d2 = p.x * p.x + p.y * p.y;
const leg = Math.sqrt(d2 - R * R);
// The cone's two edges: B's direction turned either way by asin(R / |p|).
const left = { x: (p.x * leg - p.y * R) / d2, y: (p.y * leg + p.x * R) / d2 };
const right = { x: (p.x * leg + p.y * R) / d2, y: (p.y * leg - p.x * R) / d2 };
const c = { x: p.x / tau, y: p.y / tau };
const rc = R / tau;
// u: the smallest change that takes the relative velocity out of the obstacle, onto the cut-off
// disc's rim or onto the nearer edge; n: the way out.
const w = { x: v.x - c.x, y: v.y - c.y };
const dot = w.x * p.x + w.y * p.y;
let u: { x: number; y: number };
let n: { x: number; y: number };
if (dot < 0 && dot * dot > R * R * (w.x * w.x + w.y * w.y)) {
  const wl = Math.hypot(w.x, w.y);
  n = { x: w.x / wl, y: w.y / wl };
  u = { x: (rc - wl) * n.x, y: (rc - wl) * n.y };
} else {
  const onLeft = p.x * w.y - p.y * w.x > 0;
  const l = onLeft ? left : right;
  const along = v.x * l.x + v.y * l.y;
  u = { x: along * l.x - v.x, y: along * l.y - v.y };
  n = onLeft ? { x: -l.y, y: l.x } : { x: l.y, y: -l.x };
}
// A takes half the turn: the boundary of its half-plane passes through v + u / 2.
const q = { x: v.x + u.x / 2, y: v.y + u.y / 2 };

// Drawing: 80 pixels a cell per second, the origin at (60, 170), y up on the page.
const S = 80;
const X = (x: number) => +(60 + x * S).toFixed(1);
const Y = (y: number) => +(170 - y * S).toFixed(1);
const far = 4.5;
const t0 = Math.sqrt(Math.max(0, c.x * c.x + c.y * c.y - rc * rc));
const dir = { x: -n.y, y: n.x };
const parts = [
  `<svg xmlns="http://www.w3.org/2000/svg" width="520" height="330" viewBox="0 0 520 330" font-family="sans-serif" font-size="12">`,
  `<rect width="520" height="330" fill="#fff"/>`,
  // The permitted half-plane, shaded: a large polygon clipped by the picture.
  `<polygon points="${[
    [q.x + dir.x * 20, q.y + dir.y * 20],
    [q.x + dir.x * 20 + n.x * 20, q.y + dir.y * 20 + n.y * 20],
    [q.x - dir.x * 20 + n.x * 20, q.y - dir.y * 20 + n.y * 20],
    [q.x - dir.x * 20, q.y - dir.y * 20],
  ].map(([x, y]) => `${X(x)},${Y(y)}`).join(' ')}" fill="#dff3df"/>`,
  // The velocity obstacle: the cone beyond its cut-off disc.
  `<polygon points="${X(left.x * t0)},${Y(left.y * t0)} ${X(left.x * far)},${Y(left.y * far)} ${X(right.x * far)},${Y(right.y * far)} ${X(right.x * t0)},${Y(right.y * t0)}" fill="#f6d5d5"/>`,
  `<circle cx="${X(c.x)}" cy="${Y(c.y)}" r="${rc * S}" fill="#f6d5d5" stroke="#c44" stroke-width="1.5"/>`,
  `<line x1="${X(0)}" y1="${Y(0)}" x2="${X(left.x * far)}" y2="${Y(left.y * far)}" stroke="#c44" stroke-width="1.5"/>`,
  `<line x1="${X(0)}" y1="${Y(0)}" x2="${X(right.x * far)}" y2="${Y(right.y * far)}" stroke="#c44" stroke-width="1.5"/>`,
  // The half-plane's boundary.
  `<line x1="${X(q.x - dir.x * 20)}" y1="${Y(q.y - dir.y * 20)}" x2="${X(q.x + dir.x * 20)}" y2="${Y(q.y + dir.y * 20)}" stroke="#393" stroke-width="2"/>`,
  // Axes, the velocity and the change u.
  `<line x1="20" y1="${Y(0)}" x2="500" y2="${Y(0)}" stroke="#999"/><line x1="${X(0)}" y1="20" x2="${X(0)}" y2="310" stroke="#999"/>`,
  `<circle cx="${X(v.x)}" cy="${Y(v.y)}" r="4" fill="#222"/><text x="${X(v.x) + 6}" y="${Y(v.y) + 16}">v = vA − vB</text>`,
  `<line x1="${X(v.x)}" y1="${Y(v.y)}" x2="${X(v.x + u.x)}" y2="${Y(v.y + u.y)}" stroke="#222" stroke-width="1.5" stroke-dasharray="4 3"/>`,
  `<text x="${X(v.x + u.x) + 6}" y="${Y(v.y + u.y)}">v + u</text>`,
  `<text x="${X(c.x) - 12}" y="${Y(c.y) + 4}" fill="#a22">p / τ</text>`,
  `<text x="${X(0) + 4}" y="${Y(0) + 16}">0</text>`,
  `<text x="300" y="300" fill="#a22">velocity obstacle of A toward B</text>`,
  `<text x="24" y="40" fill="#272">green: what A may choose (edge at v + u/2: A takes half the turn)</text>`,
  `</svg>`,
];
writeFileSync(fileURLToPath(new URL('../docs/orca.svg', import.meta.url)), parts.join('\n') + '\n');
