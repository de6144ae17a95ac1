/**
 * The agents' tuning constants, in one place. Distances are in cells (1 = one tile edge) and
 * times in seconds of simulated time. The defaults are sized for tile games: an agent a little
 * under a tile wide walking a few tiles a second, stepping a cell or so aside for a walker and
 * back to its post afterwards.
 */
export interface NavigationOptions {
  /** Length of one simulation step (seconds). `update(dt)` runs whole steps from an accumulator. @default 1/60 */
  fixedStep: number;
  /** At most this many steps per `update` call, so a long frame cannot snowball. @default 8 */
  maxStepsPerUpdate: number;
  /** A waypoint closer than this is reached (cells). @default 0.125 */
  walkThreshold: number;
  /** Default collision radius of a new agent (cells). @default 0.35 */
  collisionRadius: number;
  /** Default walk speed (cells per second). @default 4 */
  walkSpeed: number;
  /** Default turn rate toward the movement direction (radians per second). @default 4 * Math.PI */
  rotationSpeed: number;
  /** Default arrival threshold of an order: within this of the final target counts as arrived (cells). @default 0.125 */
  arrivalThreshold: number;
  /** Push-apart passes per step. @default 3 */
  collisionIterations: number;
  /**
   * The farthest a standing unit walks to get out of a walker's way (cells of walk). It goes to
   * the nearest free cell off the ways of the walkers near it (sideways preferred over ahead,
   * ahead over back toward the walker); with no such cell in reach (a long corridor) a walker that
   * touches it sends it this far straight away from itself. @default 3
   */
  nudgeDist: number;
  /**
   * A standing unit that a walker on its way would reach within this time (seconds, at the
   * walker's speed) steps aside before the walker touches it, when it has a free cell to step to
   * within `nudgeDist`; 0: only once touched. @default 0.75
   */
  stepAsideTime: number;
  /** An agent that moved more than this in a step is a mover (cells). @default 0.02 */
  movedEps: number;
  /** A mover this close to a walker's next segment makes it replan (cells). @default 4.5 */
  replanTriggerDist: number;
  /** The least time between two mover-triggered replans of one agent (seconds). @default 0.5 */
  replanCooldown: number;
  /** Standing agents farther than this from the start-goal segment are ignored when planning (cells). @default 15 */
  obstacleInfluenceDist: number;
  /** The part of a standing agent's radius that blocks planning. @default 0.6 */
  obstacleRadiusFraction: number;
  /** A group order of at least this many units follows one flow field instead of one A* per unit. @default 24 */
  flowFieldMinGroup: number;
  /**
   * An order to a target within this of the walker's current target keeps its path and moves only
   * the path's end (when the last leg stays in line of sight), so a goal that drifts a little each
   * frame (a unit following another) does not replan every order (cells). @default 0.5
   */
  retargetDist: number;
  /** Formation slot spacing, in collision diameters. @default 1.25 */
  formationSpacing: number;
  /**
   * A walker whose way left to its target (along its path or its group's flow field) has not
   * shrunk by `stuckDist` for this long is stuck (seconds): circling round a spot another unit
   * holds counts as no progress. Within `crowdedArrivalDist` of its target it has arrived; else a
   * flow-field walker keeps to the field for `stuckRetries` such periods and then plans its own
   * way round the crowd, and a walker on its own path replans, up to `stuckRetries` times, and
   * then gives up: it stops where it is, flagged AGENT_BLOCKED, and its arrival callback fires.
   * @default 3
   */
  stuckTime: number;
  /**
   * A walker stuck (see stuckTime) this close to its target has arrived: in a crowd the exact
   * spot is held by others, and standing half a cell from it is what a player expects (cells). @default 0.5
   */
  crowdedArrivalDist: number;
  /** Replans a stuck walker tries before giving up (see stuckTime). @default 3 */
  stuckRetries: number;
  /**
   * A unit that stepped aside (or was shoved) walks back to its post after standing this long
   * (seconds) and once no walker's way ahead passes its post nor another unit stands on it, so a
   * guard keeps its doorway and a group its formation once the walkers have passed; 0: it stays
   * at the new spot. Which units have a post: see `returnToPost`. @default 1
   */
  returnAfterNudge: number;
  /**
   * Every standing unit keeps a post: where it was added, or where its last order ended (the
   * order's target when it got there; where it stood when it stopped short: crowded, given up,
   * unreachable, `stopInPlace`). false: only a unit whose last order gave a target returns (to that
   * target); one never ordered or stopped in place stays where it was pushed. @default true
   */
  returnToPost: boolean;
  /** The progress toward its target a walker must make every stuckTime (cells). @default 0.5 */
  stuckDist: number;
  /** A flow-field unit within this path distance of the goal leaves the field for its own formation slot (cells). @default 6 */
  flowSlotHandoff: number;
  /**
   * Shortcuts (off at 0): after a grid change that opened a way (a wall removed, a cell made
   * cheaper, a one-way flag cleared; `GridChange.opened`), a walker whose remaining path costs
   * more than this factor times the best route now replans, once, at the next step: 1.2 replans
   * walkers more than 20 % dearer than needed. Each walker gets a cheap bound first (step
   * distance to the opened rectangle and on to its target, at the layer's smallest cost) and a
   * search of at most `shortcutSearchLimit` expansions only when the bound allows such a
   * shortcut. 0 or a number >= 1. @default 0
   */
  shortcutFactor: number;
  /** Expansions of one shortcut-confirming search (see shortcutFactor); a walker whose search runs out keeps its path. A whole number >= 1. @default 4096 */
  shortcutSearchLimit: number;
  /**
   * Cells a chase's flow fields may compute per step (`NavigationSystem.chase`): the field to the
   * target's newest cell and the one growing toward every unit share it. More keeps far units
   * on a fresher goal and costs more per step (about 0.1 ms per 1,000 cells). A whole number >= 1.
   * @default 8192
   */
  flowFieldBudget: number;
  /**
   * Local avoidance of walkers. 'orca': each step every walker chooses its velocity, nearest the
   * one toward its waypoint, that keeps its disc clear of the agents near it for `timeHorizon`
   * seconds (two walkers each taking half the turn) and of the walls for `timeHorizonObstacles`
   * seconds (optimal reciprocal collision avoidance); it brakes before its target and stops on
   * it. Push-apart stays as the last safety. 'none': walkers go straight at their waypoints and
   * push-apart alone keeps them apart. 'orca' keeps crowds apart (a circle of 250 units crossing
   * at once: closest approach 0.98 of two radii against 0.45), but large group orders settle
   * into their formation more slowly than with 'none', hence the default (docs/agents.md,
   * Avoidance). @default 'none'
   */
  avoidance: 'orca' | 'none';
  /**
   * Search work the default planner may do per step, over every plan of the step (first plans and
   * replans alike): one unit per node a jump point search expands and per cell its jumps scan
   * (findPath's `maxIterations` measure, about 8 ns on a 1024 x 1024 map), 32 per node an A*
   * expands (about 0.25 microseconds: the searches around standing units, toward an unreachable
   * goal, and on layers jump point search does not take). A step starts no plan once it is spent
   * and cuts the running search short at it, so a thousand units ordered at once are planned over
   * a few hundred steps, in turn, and every step stays short. Units not planned yet walk straight
   * at their targets meanwhile (every unit moves at the step after its order) and take their exact
   * path from where they stand once planned. A search longer than a whole step's budget goes on
   * over the next steps, spread (`Pathfinder.begin`): a jump point search as one, its work counted
   * as in one call; else A* as near as it gets. (A jump point search after the way around standing
   * units failed runs whole, alone in its step, with that way round.) A whole number >= 32.
   * @default 262144
   */
  planBudget: number;
  /** With avoidance, walkers within this distance of a walker are its neighbours (cells). @default 5 */
  neighbourDistance: number;
  /**
   * With avoidance, how far ahead a walker keeps clear of its neighbours (seconds, > 0): longer
   * turns aside earlier and more gently, shorter lets walkers come closer before they give way. @default 1
   */
  timeHorizon: number;
  /** With avoidance, how far ahead a walker keeps clear of walls (seconds, > 0); it looks at the walls within its speed times this plus its radius. @default 0.5 */
  timeHorizonObstacles: number;
  /** With avoidance, at most this many neighbours (the nearest) count for each walker; 0: walls only. A whole number. @default 10 */
  maxNeighbours: number;
}

/** The defaults of {@link NavigationOptions}. */
export const DEFAULT_NAVIGATION_OPTIONS: Readonly<NavigationOptions> = Object.freeze({
  fixedStep: 1 / 60,
  maxStepsPerUpdate: 8,
  walkThreshold: 0.125,
  collisionRadius: 0.35,
  walkSpeed: 4,
  rotationSpeed: 4 * Math.PI,
  arrivalThreshold: 0.125,
  collisionIterations: 3,
  nudgeDist: 3,
  stepAsideTime: 0.75,
  movedEps: 0.02,
  replanTriggerDist: 4.5,
  replanCooldown: 0.5,
  obstacleInfluenceDist: 15,
  obstacleRadiusFraction: 0.6,
  flowFieldMinGroup: 24,
  retargetDist: 0.5,
  formationSpacing: 1.25,
  flowSlotHandoff: 6,
  stuckTime: 3,
  crowdedArrivalDist: 0.5,
  stuckRetries: 3,
  returnAfterNudge: 1,
  returnToPost: true,
  stuckDist: 0.5,
  shortcutFactor: 0,
  shortcutSearchLimit: 4096,
  flowFieldBudget: 8192,
  planBudget: 262144,
  avoidance: 'none',
  neighbourDistance: 5,
  timeHorizon: 1,
  timeHorizonObstacles: 0.5,
  maxNeighbours: 10,
});
