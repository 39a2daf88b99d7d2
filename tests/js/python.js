// Runs programs with Debian's python3 (where python3-numpy and python3-torch live), each in a
// fresh namespace of one process, and returns what each printed. With `module`, returns null
// when that module cannot be imported there (checked in the same process: importing torch takes
// seconds on this machine). Used by the code step's tests (tests/browser/code.test.js,
// tests/js/code-snippets.test.js).
import { execFile } from 'node:child_process';

export const PYTHON = '/usr/bin/python3';

export function runPython(programs, module = null) {
  const driver = [
    'import contextlib, importlib, io, json, sys',
    ...(module ? ['try:', `    importlib.import_module("${module}")`, 'except ImportError:', '    print("null")', '    sys.exit(0)'] : []),
    'out = []',
    'for code in json.load(sys.stdin):',
    '    buf = io.StringIO()',
    '    with contextlib.redirect_stdout(buf):',
    '        exec(code, {"__name__": "__main__"})',
    '    out.append(buf.getvalue())',
    'print(json.dumps(out))',
  ].join('\n');
  return new Promise((resolve, reject) => {
    const child = execFile(PYTHON, ['-c', driver], { encoding: 'utf8', timeout: 180000, maxBuffer: 1 << 24 }, (err, stdout) => {
      if (err) reject(err);
      else resolve(JSON.parse(stdout));
    });
    child.stdin.end(JSON.stringify(programs));
  });
}
