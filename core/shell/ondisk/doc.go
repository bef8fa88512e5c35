// Package ondisk reads the files a command line will run — shell scripts,
// interpreter files, makefiles, package.json and composer.json scripts,
// justfiles, Taskfiles, git hooks — bounded, once per call, and parses the
// task files into the command lines they run, each with the file and line
// it comes from. It knows nothing of shell analysis: core/shell/analysis
// asks it for a file's text or a task's command lines and analyses them as
// it analyses a command line.
//
// What is read: only regular files (a FIFO, a device, a socket, anything
// under /proc, /sys or /dev is never opened for reading: Status
// NotRegular), each at most Limits.File bytes and all of one call at most
// Limits.Call bytes and Limits.Files files; a file past a cap is not read
// at all (Status OverCap). Each path is read once per Reader (one call):
// the text judged is the text of the moment of the call. Every attempt is
// recorded (Reader.Records) with the file's size and sha256, for the
// decision log.
//
// Reading goes through FS, so tests inject a file system (MapFS) and the
// hook process uses the real one (OS). Cost: one open, one fstat and one
// read per distinct file, plus the parse of the task file, linear in its
// size.
package ondisk
