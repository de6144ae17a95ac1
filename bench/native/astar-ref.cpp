// Origin: the tilenav team's shared native reference A* (astar-ref.cpp), vendored here unchanged
// below this note. bench/native.ts builds it with g++ -O3 -DNDEBUG -std=c++17 for the `speed` and
// `astar` benchmarks (skipped, with the reason printed, when g++ is missing or the build fails).
//
// astar-ref.cpp -- reference "plain A* in native code" for Moving AI octile grids.
//
// 8-connected, cardinal cost 1, diagonal cost sqrt(2), no corner cutting
// (a diagonal move needs both orthogonally adjacent cells passable).
// Passable cells: '.', 'G', 'S'.  Octile heuristic (consistent).
//
// Implementation:
//  * padded flat grid (1-cell obstacle border): no bounds checks;
//  * per-cell 8-bit mask of legal moves, precomputed once per map;
//  * integer costs: cardinal = 470832, diagonal = 665857 (a Pell pair,
//    |665857 - 470832*sqrt2| < 1e-6, so integer order == real order for any
//    realistic path); g,f are uint64;
//  * binary min-heap of 16-byte entries {key, node, packed xy}, key =
//    f<<20 | (~g-bucket) i.e. ties on f broken toward larger g;
//    branchless child selection in sift-down (+inf sentinel slot);
//    indexed decrease-key (pos[] per cell); -DDK=0 gives the lazy variant
//    (re-push on improvement, skip closed on pop), ~10-40% slower here;
//  * struct-of-arrays per-cell state (gen, g, parent, pos), 2 MiB-aligned
//    with MADV_HUGEPAGE (-DUSE_HUGE=0 to disable);
//  * generation counters instead of clearing per-cell state
//    (gen == 2*q: seen in query q, 2*q+1: closed in query q);
//  * no allocation per query (all buffers sized once per map).
//  * timing per query covers search + parent walk (path composition),
//    with std::chrono::steady_clock around each call.
//
// Build: g++ -O3 -DNDEBUG -std=c++17 -o astar astar.cpp
// Usage: astar MAP SCEN [--per-query OUT.tsv] [--repeat N]
// Prints one summary line (tab separated, key=value).
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/mman.h>

#ifndef DK
#define DK 1 // 1: indexed heap with decrease-key; 0: lazy re-push + skip stale
#endif
#ifndef USE_HUGE
#define USE_HUGE 1
#endif

static constexpr uint64_t CARD = 470832;
static constexpr uint64_t DIAG = 665857;
static constexpr uint32_t NONE = 0xFFFFFFFFu;

struct Grid
{
	int W = 0, H = 0, PW = 0, PH = 0;
	std::vector<uint8_t> pass; // padded
	std::vector<uint8_t> mask; // legal moves per padded cell
	int off[8];
	int dx[8], dy[8];
	uint64_t cost[8];
	size_t passable = 0;

	uint32_t idx(int x, int y) const { return (uint32_t)((y + 1) * PW + (x + 1)); }
};

static bool
load_map(const char* fn, Grid& g)
{
	std::ifstream in(fn);
	if(!in) { fprintf(stderr, "cannot open map %s\n", fn); return false; }
	std::string tok;
	int W = -1, H = -1;
	while(in >> tok)
	{
		if(tok == "type") { in >> tok; }
		else if(tok == "height") { in >> H; }
		else if(tok == "width") { in >> W; }
		else if(tok == "map") break;
	}
	if(W <= 0 || H <= 0) { fprintf(stderr, "bad header\n"); return false; }
	g.W = W; g.H = H; g.PW = W + 2; g.PH = H + 2;
	g.pass.assign((size_t)g.PW * g.PH, 0);
	std::string line;
	std::getline(in, line); // rest of "map" line
	for(int y = 0; y < H; y++)
	{
		if(!std::getline(in, line)) { fprintf(stderr, "short map\n"); return false; }
		if(!line.empty() && line.back() == '\r') line.pop_back();
		if((int)line.size() < W) { fprintf(stderr, "short row %d\n", y); return false; }
		for(int x = 0; x < W; x++)
		{
			char c = line[x];
			bool p = (c == '.' || c == 'G' || c == 'S');
			g.pass[g.idx(x, y)] = p;
			g.passable += p;
		}
	}
	// directions: 0..3 cardinal N E S W, 4..7 diagonal NE SE SW NW
	const int DX[8] = {0, 1, 0, -1, 1, 1, -1, -1};
	const int DY[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
	for(int d = 0; d < 8; d++)
	{
		g.dx[d] = DX[d]; g.dy[d] = DY[d];
		g.off[d] = DY[d] * g.PW + DX[d];
		g.cost[d] = d < 4 ? CARD : DIAG;
	}
	g.mask.assign(g.pass.size(), 0);
	for(int y = 0; y < H; y++)
		for(int x = 0; x < W; x++)
		{
			uint32_t i = g.idx(x, y);
			if(!g.pass[i]) continue;
			uint8_t m = 0;
			for(int d = 0; d < 4; d++)
				if(g.pass[i + g.off[d]]) m |= 1u << d;
			for(int d = 4; d < 8; d++)
				if(g.pass[i + g.off[d]] && g.pass[i + DX[d]] && g.pass[i + DY[d] * g.PW])
					m |= 1u << d;
			g.mask[i] = m;
		}
	return true;
}

struct Query
{
	int sx, sy, gx, gy;
	double opt;
};

static bool
load_scen(const char* fn, std::vector<Query>& qs, int W, int H)
{
	std::ifstream in(fn);
	if(!in) { fprintf(stderr, "cannot open scen %s\n", fn); return false; }
	std::string line;
	std::getline(in, line); // version
	while(std::getline(in, line))
	{
		if(line.empty() || line == "\r") continue;
		std::vector<std::string> f;
		std::stringstream ss(line);
		std::string t;
		while(std::getline(ss, t, '\t')) f.push_back(t);
		if(f.size() < 9) continue;
		int mw = atoi(f[2].c_str()), mh = atoi(f[3].c_str());
		if(mw != W || mh != H) { fprintf(stderr, "scen dims %dx%d != map %dx%d\n", mw, mh, W, H); return false; }
		qs.push_back({atoi(f[4].c_str()), atoi(f[5].c_str()), atoi(f[6].c_str()),
		              atoi(f[7].c_str()), atof(f[8].c_str())});
	}
	return true;
}

template<class T>
static T*
big_alloc(size_t n)
{
	// one allocation per map; 2 MiB-aligned + MADV_HUGEPAGE to cut TLB misses
	size_t bytes = n * sizeof(T);
	const size_t al = 2u << 20;
	bytes = (bytes + al - 1) / al * al;
	void* p = aligned_alloc(al, bytes);
	if(!p) { fprintf(stderr, "out of memory\n"); exit(1); }
#if USE_HUGE
	madvise(p, bytes, MADV_HUGEPAGE);
#endif
	memset(p, 0, bytes);
	return (T*)p;
}

struct HeapEntry
{
	uint64_t key;  // f << 20 | (0xFFFFF - g-bucket): min f, then max g
	uint32_t node; // padded cell index
	uint32_t xy;   // x | y << 16 (saves a division when expanding)
};

class AStar
{
public:
	explicit AStar(const Grid& grid) : G(grid)
	{
		const size_t N = grid.pass.size();
		gen = big_alloc<uint32_t>(N);
		gval = big_alloc<uint64_t>(N);
		parent = big_alloc<uint32_t>(N);
#if DK
		pos = big_alloc<uint32_t>(N);
#endif
		cap = grid.passable + 1024;
		heap = big_alloc<HeapEntry>(cap + 1);
	}
	~AStar()
	{
		free(gen); free(gval); free(parent); free(heap);
#if DK
		free(pos);
#endif
	}

	struct Result
	{
		bool found;
		uint32_t ncard, ndiag; // path composition
		uint64_t expanded;
	};

	Result
	search(int sx, int sy, int gx, int gy)
	{
		Result r{false, 0, 0, 0};
		const uint32_t s = G.idx(sx, sy), t = G.idx(gx, gy);
		if(!G.pass[s] || !G.pass[t]) return r;
		if(s == t) { r.found = true; return r; }
		q++;
		const uint32_t gOpen = 2 * q, gClosed = 2 * q + 1;
		n = 0;
		gen[s] = gOpen; gval[s] = 0; parent[s] = NONE;
		push(key(h(sx, sy, gx, gy), 0), s, pack(sx, sy));
		const uint8_t* mask = G.mask.data();
		uint64_t expanded = 0;
		while(n)
		{
			const HeapEntry top = heap[0];
			pop();
			const uint32_t u = top.node;
#if !DK
			if(gen[u] == gClosed) continue; // stale duplicate (lazy decrease-key)
#endif
			if(u == t) { r.found = true; break; }
			gen[u] = gClosed;
			expanded++;
			const uint64_t g = gval[u];
			const int cx = top.xy & 0xFFFF, cy = top.xy >> 16;
			unsigned m = mask[u];
			while(m)
			{
				const int d = __builtin_ctz(m);
				m &= m - 1;
				const uint32_t v = u + G.off[d];
				const uint32_t gv = gen[v];
				if(gv == gClosed) continue;
				const uint64_t ng = g + G.cost[d];
#if DK
				if(gv != gOpen)
				{
					gen[v] = gOpen; gval[v] = ng; parent[v] = u;
					const int nx = cx + G.dx[d], ny = cy + G.dy[d];
					push(key(ng + h(nx, ny, gx, gy), ng), v, pack(nx, ny));
				}
				else if(ng < gval[v])
				{
					// decrease-key: f drops by the same amount as g
					const uint64_t hv = (heap[pos[v]].key >> 20) - gval[v];
					gval[v] = ng; parent[v] = u;
					decrease(pos[v], key(ng + hv, ng));
				}
#else
				if(gv != gOpen || ng < gval[v])
				{
					gen[v] = gOpen; gval[v] = ng; parent[v] = u;
					const int nx = cx + G.dx[d], ny = cy + G.dy[d];
					push(key(ng + h(nx, ny, gx, gy), ng), v, pack(nx, ny));
				}
#endif
			}
		}
		r.expanded = expanded;
		if(r.found)
		{
			// walk parents: count cardinal / diagonal steps
			uint32_t v = t;
			while(parent[v] != NONE)
			{
				const uint32_t p = parent[v];
				const int dd = (int)v - (int)p;
				if(dd == 1 || dd == -1 || dd == G.PW || dd == -G.PW) r.ncard++;
				else r.ndiag++;
				v = p;
			}
		}
		return r;
	}

private:
	const Grid& G;
	uint32_t* gen;    // generation stamp per cell
	uint64_t* gval;   // g per cell (valid iff gen is this query's)
	uint32_t* parent; // parent cell
#if DK
	uint32_t* pos;    // heap index of an open cell
#endif
	HeapEntry* heap;  // binary heap, slot n is a +inf sentinel during pop
	size_t n = 0, cap = 0;
	uint32_t q = 0;

	static uint32_t pack(int x, int y) { return (uint32_t)x | ((uint32_t)y << 16); }
	static uint64_t
	h(int x, int y, int gx, int gy)
	{
		const uint64_t ax = (uint64_t)std::abs(x - gx), ay = (uint64_t)std::abs(y - gy);
		const uint64_t mn = ax < ay ? ax : ay, mx = ax < ay ? ay : ax;
		return DIAG * mn + CARD * (mx - mn);
	}
	static uint64_t
	key(uint64_t f, uint64_t g)
	{
		// ties on f: larger g first. g bucket = g >> 16 (~0.14 cell), 20 bits
		uint64_t gb = g >> 16;
		if(gb > 0xFFFFF) gb = 0xFFFFF;
		return (f << 20) | (0xFFFFF - gb);
	}
	void
	grow()
	{
		// only if the open list outgrows #passable cells (never in practice)
		size_t ncap = cap * 2;
		HeapEntry* nh = big_alloc<HeapEntry>(ncap + 1);
		memcpy(nh, heap, n * sizeof(HeapEntry));
		free(heap);
		heap = nh;
		cap = ncap;
	}
	void
	push(uint64_t k, uint32_t node, uint32_t xy)
	{
		if(n == cap) grow();
		sift_up(n++, HeapEntry{k, node, xy});
	}
	void
	sift_up(size_t i, HeapEntry e)
	{
		while(i > 0)
		{
			const size_t p = (i - 1) >> 1;
			if(heap[p].key <= e.key) break;
			heap[i] = heap[p];
#if DK
			pos[heap[i].node] = (uint32_t)i;
#endif
			i = p;
		}
		heap[i] = e;
#if DK
		pos[e.node] = (uint32_t)i;
#endif
	}
#if DK
	void
	decrease(size_t i, uint64_t k)
	{
		HeapEntry e = heap[i];
		e.key = k;
		sift_up(i, e);
	}
#endif
	void
	pop()
	{
		// sift the last entry down from the root; the vacated last slot gets
		// a +inf key so child selection needs no bounds branch (branchless)
		const HeapEntry last = heap[--n];
		heap[n].key = ~0ull;
		size_t i = 0;
		for(;;)
		{
			size_t c = 2 * i + 1;
			if(c >= n) break;
			c += (heap[c + 1].key < heap[c].key);
			if(last.key <= heap[c].key) break;
			heap[i] = heap[c];
#if DK
			pos[heap[i].node] = (uint32_t)i;
#endif
			i = c;
		}
		if(n)
		{
			heap[i] = last;
#if DK
			pos[last.node] = (uint32_t)i;
#endif
		}
	}
};

int
main(int argc, char** argv)
{
	if(argc < 3)
	{
		fprintf(stderr, "usage: %s MAP SCEN [--per-query OUT.tsv] [--repeat N]\n", argv[0]);
		return 2;
	}
	const char* perq = nullptr;
	int repeat = 1;
	for(int i = 3; i < argc; i++)
	{
		if(!strcmp(argv[i], "--per-query") && i + 1 < argc) perq = argv[++i];
		else if(!strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = atoi(argv[++i]);
	}
	Grid grid;
	if(!load_map(argv[1], grid)) return 1;
	std::vector<Query> qs;
	if(!load_scen(argv[2], qs, grid.W, grid.H)) return 1;
	AStar astar(grid);

	const size_t n = qs.size();
	std::vector<double> ns(n), len(n);
	std::vector<uint64_t> exp(n);
	std::vector<uint8_t> found(n);
	using clk = std::chrono::steady_clock;
	double best_total_ns = 1e300;
	for(int rep = 0; rep < repeat; rep++)
	{
		double total = 0;
		for(size_t i = 0; i < n; i++)
		{
			const Query& Q = qs[i];
			auto t0 = clk::now();
			AStar::Result r = astar.search(Q.sx, Q.sy, Q.gx, Q.gy);
			auto t1 = clk::now();
			double dt = (double)std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count();
			total += dt;
			if(rep == 0 || dt < ns[i]) ns[i] = dt;
			exp[i] = r.expanded;
			found[i] = r.found;
			len[i] = r.found ? r.ncard + r.ndiag * std::sqrt(2.0) : -1.0;
		}
		if(getenv("ASTAR_REPS")) fprintf(stderr, "rep %d total_ms %.3f\n", rep, total / 1e6);
		if(total < best_total_ns) best_total_ns = total;
	}
	// correctness vs scen (scen lengths carry ~6 significant digits)
	size_t ok = 0;
	uint64_t texp = 0;
	for(size_t i = 0; i < n; i++)
	{
		const Query& Q = qs[i];
		bool nopath = Q.opt == 0 && (Q.sx != Q.gx || Q.sy != Q.gy);
		bool good = nopath ? !found[i] : (found[i] && std::fabs(len[i] - Q.opt) <= 0.01);
		ok += good;
		texp += exp[i];
		if(!good)
			fprintf(stderr, "MISMATCH q%zu (%d,%d)->(%d,%d) got %.6f expected %.6f\n", i, Q.sx, Q.sy,
			        Q.gx, Q.gy, len[i], Q.opt);
	}
	if(perq)
	{
		FILE* f = fopen(perq, "w");
		fprintf(f, "id\texpanded\tnanos\tpcost\tscost\n");
		for(size_t i = 0; i < n; i++)
			fprintf(f, "%zu\t%" PRIu64 "\t%.0f\t%.6f\t%.6f\n", i, exp[i], ns[i], len[i], qs[i].opt);
		fclose(f);
	}
	printf("map=%s\tqueries=%zu\ttotal_ms=%.3f\tmean_us=%.3f\tcorrect=%zu/%zu\texp_per_query=%.1f\tMexp_per_s=%.2f\n",
	       argv[1], n, best_total_ns / 1e6, best_total_ns / 1e3 / n, ok, n, (double)texp / n,
	       (double)texp / (best_total_ns / 1e9) / 1e6);
	return ok == n ? 0 : 3;
}
