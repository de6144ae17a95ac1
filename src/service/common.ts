/** What both environment entries of `tilenav/service` (node.ts, web.ts) export. */
export { PathService, shareGrid, DEFAULT_SERVICE_OPTIONS } from './service.js';
export type { PathServiceOptions, ServiceRequestOptions, ServiceResult, ServiceStatus, ServiceStats, ServiceFlowFieldOptions, ServiceFieldResult, ServiceFieldStatus, OverflowPolicy, WorkerPort, WorkerFactory } from './service.js';
export { serveWorker } from './worker-core.js';
export type { WorkerEndpoint } from './worker-core.js';
export { canShareMemory } from './protocol.js';
