/**
 * The bundled text of web-worker.js, for starting a worker from a Blob when the file itself
 * cannot be fetched (a bundler that copied this package's code but not the worker file). The
 * build writes the real text into dist; run from the sources it is empty and that way is skipped.
 */
const source: string = '';
export default source;
