/** Reader pool thread: one document read and assembled off the calling thread (src/readers/read-task.ts). */
import { runReadTask } from '../src/readers/read-task.js';

export default runReadTask;
