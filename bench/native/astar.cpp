// Native reference A* for the benchmark's scale line: octile, no corner cutting, flat arrays,
// binary heap with decrease-key, the same tie-breaking as tilenav. Reads a Moving AI map and
// scenario, prints one JSON line. Built by bench/run.js with g++ -O2 when g++ is present.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <chrono>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include <cstdint>

struct Heap {
  std::vector<int> nodes; std::vector<double> f, g; std::vector<int> pos; int size = 0;
  void init(int n) { nodes.resize(n); f.resize(n); g.resize(n); pos.resize(n); }
  inline bool less(double fa, double ga, int na, double fb, double gb, int nb) {
    return fa < fb || (fa == fb && (ga > gb || (ga == gb && na < nb)));
  }
  inline void up(int i, int node, double fv, double gv) {
    while (i > 0) { int p = (i - 1) >> 1; if (!less(fv, gv, node, f[p], g[p], nodes[p])) break;
      nodes[i] = nodes[p]; f[i] = f[p]; g[i] = g[p]; pos[nodes[i]] = i; i = p; }
    nodes[i] = node; f[i] = fv; g[i] = gv; pos[node] = i;
  }
  inline void push(int node, double fv, double gv) { up(size++, node, fv, gv); }
  inline int pop() {
    int top = nodes[0]; int last = --size; if (last == 0) return top;
    int node = nodes[last]; double fv = f[last], gv = g[last]; int i = 0;
    for (;;) { int c = 2 * i + 1; if (c >= size) break; int r = c + 1;
      if (r < size && less(f[r], g[r], nodes[r], f[c], g[c], nodes[c])) c = r;
      if (!less(f[c], g[c], nodes[c], fv, gv, node)) break;
      nodes[i] = nodes[c]; f[i] = f[c]; g[i] = g[c]; pos[nodes[i]] = i; i = c; }
    nodes[i] = node; f[i] = fv; g[i] = gv; pos[node] = i; return top;
  }
};

int main(int argc, char** argv) {
  if (argc < 3) { fprintf(stderr, "usage: astar MAP SCEN\n"); return 2; }
  std::ifstream mf(argv[1]); std::string line; int W = 0, H = 0;
  while (std::getline(mf, line)) { if (line.rfind("height", 0) == 0) H = atoi(line.c_str() + 7);
    else if (line.rfind("width", 0) == 0) W = atoi(line.c_str() + 6); else if (line.rfind("map", 0) == 0) break; }
  int S = W + 2; std::vector<float> pass((size_t)S * (H + 2), 0.f);
  for (int y = 0; y < H; y++) { std::getline(mf, line);
    for (int x = 0; x < W; x++) { char c = line[x]; pass[(y + 1) * S + x + 1] = (c == '.' || c == 'G' || c == 'S') ? 1.f : 0.f; } }
  std::ifstream sf(argv[2]); std::getline(sf, line);
  struct Q { int sx, sy, gx, gy; double opt; }; std::vector<Q> qs;
  while (std::getline(sf, line)) { if (line.empty()) continue; std::istringstream ss(line); int b, w, h; std::string m; Q q;
    ss >> b >> m >> w >> h >> q.sx >> q.sy >> q.gx >> q.gy >> q.opt; qs.push_back(q); }
  size_t N = pass.size(); std::vector<double> g(N); std::vector<int> parent(N); std::vector<uint32_t> stamp(N, 0);
  Heap heap; heap.init((int)N); uint32_t gen = 0; const double K = std::sqrt(2.0) - 1, R2 = std::sqrt(2.0);
  const int D[8] = {-S, 1, S, -1, 1 - S, 1 + S, S - 1, -S - 1}; const int DX[8] = {0,1,0,-1,1,1,-1,-1}, DY[8] = {-1,0,1,0,-1,1,1,-1};
  int optimal = 0; long long expTotal = 0;
  auto t0 = std::chrono::steady_clock::now();
  std::clock_t c0 = std::clock();
  for (auto& q : qs) {
    gen += 2; uint32_t open = gen, closed = gen + 1; int start = (q.sy + 1) * S + q.sx + 1, goal = (q.gy + 1) * S + q.gx + 1;
    int gx = q.gx + 1, gy = q.gy + 1; heap.size = 0; g[start] = 0; parent[start] = -1; stamp[start] = open; heap.push(start, 0, 0);
    long long exp = 0;
    while (heap.size > 0) { int cur = heap.pop(); stamp[cur] = closed; if (cur == goal) break; exp++;
      double gc = g[cur]; int cy = cur / S; int cdx = cur - cy * S - gx, cdy = cy - gy;
      int mv = (pass[cur - S] > 0) | ((pass[cur + 1] > 0) << 1) | ((pass[cur + S] > 0) << 2) | ((pass[cur - 1] > 0) << 3);
      mv |= (((mv & 3) == 3) << 4) | (((mv & 6) == 6) << 5) | (((mv & 12) == 12) << 6) | (((mv & 9) == 9) << 7);
      for (int k = 0; mv; k++, mv >>= 1) { if (!(mv & 1)) continue; int n = cur + D[k]; float c = pass[n]; if (c <= 0) continue;
        uint32_t s = stamp[n]; if (s == closed) continue; double ng = k < 4 ? gc + c : gc + R2 * c;
        int dx = std::abs(cdx + DX[k]), dy = std::abs(cdy + DY[k]); double h = dx > dy ? dx + K * dy : dy + K * dx;
        if (s == open) { if (ng < g[n]) { g[n] = ng; parent[n] = cur; heap.up(heap.pos[n], n, ng + h, ng); } }
        else { g[n] = ng; parent[n] = cur; stamp[n] = open; heap.push(n, ng + h, ng); } } }
    expTotal += exp;
    double cost = stamp[goal] == closed ? g[goal] : 0; if (std::fabs(cost - q.opt) <= 1e-4 * std::max(1.0, q.opt)) optimal++;
  }
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  // Process CPU time too: on a shared machine it moves far less than wall time.
  double cpuUs = (double)(std::clock() - c0) * 1e6 / CLOCKS_PER_SEC / qs.size();
  printf("{\"queries\":%zu,\"optimal\":%d,\"meanUs\":%.1f,\"cpuUs\":%.1f,\"expansionsPerSec\":%.0f}\n", qs.size(), optimal, ms * 1000 / qs.size(), cpuUs, expTotal / (ms / 1000));
  return 0;
}
