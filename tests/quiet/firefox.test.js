// Firefox's update times with nothing else running: the cross-engine suite's timing test
// (tests/engines/suite.js), run here instead of beside the other suites.
import { engineSuite } from '../engines/suite.js';

engineSuite('firefox', { timing: true });
