// The cross-engine suite (tests/engines/suite.js) in Firefox: Debian's firefox-esr over WebDriver BiDi.
import { engineSuite } from './suite.js';

engineSuite('firefox');
