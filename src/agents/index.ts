/**
 * tilenav/agents: navigation agents that follow paths, push each other apart, step aside,
 * replan, and move in groups (formations, flow fields). No Node or DOM imports.
 *
 * @module tilenav/agents
 */
export { NavigationSystem } from './system.js';
export type { GroupOrder, NavigationStats, NavigationSystemOptions } from './system.js';
export { AGENT_ACTIVE, AGENT_INTENT, AGENT_PATHFINDING, AGENT_HAS_PATH, AGENT_DIRTY, AGENT_PLAYER, AGENT_FLOW, AGENT_UNREACHABLE, AGENT_NUDGED, AGENT_BLOCKED } from './store.js';
export type { AgentSpec, MoveIntent } from './store.js';
export { DEFAULT_NAVIGATION_OPTIONS } from './options.js';
export type { NavigationOptions } from './options.js';
export { GridPlanner, cellOf, segmentDistance } from './planner.js';
export type { AgentPlanner, PlanRequest, AgentObstacle, LinkEnd } from './planner.js';
export { ServicePlanner } from './async-planner.js';
export type { ServicePlannerOptions } from './async-planner.js';
export { FlowField, FlowFieldCache, flowFieldTo, flowFieldCache, FLOW_SECTOR_SIZE, DEFAULT_FLOW_FIELD_LIMITS } from './flowfield.js';
export type { FlowFieldOptions, FlowFieldLimits, FlowStep, FlowRepair } from './flowfield.js';
export type { ChaseTarget, ChaseOrder } from './chase.js';
export { planFormation } from './formation.js';
export type { Formation } from './formation.js';
