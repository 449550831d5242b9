// The host's secret is the one every endpoint of a data folder uses (the recorder's socket too).
export { newToken, sameToken } from '../history/secretToken.js';
