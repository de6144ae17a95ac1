/**
 * Adapter example: tilenav agents inside a bitECS (0.4) world. Entities
 * carry Position, MoveIntent and NavigationAgent components (struct-of-arrays indexed by entity
 * id, as bitECS stores them); `navigationSystem(world, dt)` hands new intents to the
 * NavigationSystem, steps it, and copies positions and arrival back. Any ECS that keeps numbers
 * per entity does the same with a few lines.
 */
import { createWorld, addEntity, addComponent, query, type World } from 'bitecs';
import type { NavGrid } from 'tilenav';
import { NavigationSystem } from 'tilenav/agents';

const MAX = 10_000;

export const Position = { x: new Float64Array(MAX), y: new Float64Array(MAX), heading: new Float64Array(MAX) };
/** Where an entity wants to go, and how. `hasIntent` is raised by game code and lowered on arrival. */
export const MoveIntent = {
  targetX: new Float64Array(MAX),
  targetY: new Float64Array(MAX),
  desiredSpeed: new Float64Array(MAX).fill(1),
  usePathfinding: new Uint8Array(MAX).fill(1),
  arrivalThreshold: new Float64Array(MAX).fill(0.125),
  hasIntent: new Uint8Array(MAX),
  /** 1 while the navigation system has taken the current intent. */
  issued: new Uint8Array(MAX),
};
/** The entity's navigation state: here only the link to the tilenav agent (its path lives there). */
export const NavigationAgent = { agent: new Int32Array(MAX).fill(-1) };


export function createNavWorld(grid: NavGrid): World<{ nav: NavigationSystem }> {
  return createWorld({ nav: new NavigationSystem(grid) });
}

/** Spawns an entity with a navigation agent at (x, y) (cell coordinates). */
export function spawnUnit(world: World<{ nav: NavigationSystem }>, x: number, y: number): number {
  const eid = addEntity(world);
  addComponent(world, eid, Position);
  addComponent(world, eid, MoveIntent);
  addComponent(world, eid, NavigationAgent);
  Position.x[eid] = x;
  Position.y[eid] = y;
  NavigationAgent.agent[eid] = world.nav.addAgent({ x, y });
  return eid;
}

/** What game code calls: set a move intent with pathfinding. */
export function orderMove(eid: number, x: number, y: number): void {
  MoveIntent.targetX[eid] = x;
  MoveIntent.targetY[eid] = y;
  MoveIntent.hasIntent[eid] = 1;
  MoveIntent.issued[eid] = 0;
}

/** The per-frame navigation update as a bitECS system: new intents in, positions and arrival out. */
export function navigationSystem(world: World<{ nav: NavigationSystem }>, dt: number): void {
  const nav = world.nav;
  const ents = query(world, [Position, MoveIntent, NavigationAgent]);
  for (const eid of ents) {
    if (MoveIntent.hasIntent[eid] === 1 && MoveIntent.issued[eid] === 0) {
      MoveIntent.issued[eid] = 1;
      nav.moveTo(NavigationAgent.agent[eid], MoveIntent.targetX[eid], MoveIntent.targetY[eid], {
        desiredSpeed: MoveIntent.desiredSpeed[eid],
        usePathfinding: MoveIntent.usePathfinding[eid] === 1,
        arrivalThreshold: MoveIntent.arrivalThreshold[eid],
        onArrived: () => {
          MoveIntent.hasIntent[eid] = 0;
        },
      });
    }
  }
  nav.update(dt);
  for (const eid of ents) {
    const a = NavigationAgent.agent[eid];
    Position.x[eid] = nav.x[a];
    Position.y[eid] = nav.y[a];
    Position.heading[eid] = nav.heading[a];
  }
}
