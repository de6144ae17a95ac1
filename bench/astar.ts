// Filled in by the core benchmark (A* against the peers).
console.log('astar benchmark: pending');
