// The cross-engine suite (tests/engines/suite.js) in WebKit, Safari's engine: Debian's
// WebKitWebDriver and MiniBrowser over classic WebDriver.
import { engineSuite } from './suite.js';

engineSuite('webkit');
