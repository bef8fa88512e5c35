package agenthost

import "github.com/zcode-fence/zcode-fence/core"

// The hosts' read tools: the tools that put a file's content (or lines of
// it) into the agent's context. They are judged as core.KindRead calls by
// the fourth line only (a private key, a cloud token or a host's own auth
// file read into the conversation cannot be taken back; core/secrets), and
// their names join every host's hook matcher through ToolNames, like the
// shell and file tools. One table per tool shape, shared by the hosts that
// send it; a new host adds its own read tools here.
//
// Tools that list names without contents (Claude's Glob and LS, Gemini's
// glob and list_directory) are left out on purpose: a listing of ~/.ssh
// shows no secret (ls ~/.ssh is silent too), and hooking them would cost a
// hook process per call for an answer that is always silence.
//
// Normalised names: Read (one file), ReadMany (files and globs), Grep (a
// search through a file or a directory tree), NotebookRead.
//
// Measured against the real CLIs (testdata/hosts/*-Read.json, *-read_file,
// *-grep_search, *-Grep): Claude Code 2.1.332 offers Read {file_path,
// offset, limit, pages, allow_large} and no Grep, Glob or NotebookRead
// (they stay for other versions and ZCode); Gemini CLI 0.61.0 read_file
// {file_path, start_line, end_line} and grep_search {pattern, dir_path,
// ...}, and refuses a path outside its workspace itself, before its hook;
// Qwen Code 0.24.4 read_file {file_path, offset, limit, pages} and
// grep_search {pattern, glob, path, limit}, reading anywhere; Copilot CLI
// 1.0.102 sends its view {path} and grep {pattern, path} to a Claude-format
// hook as Read and Grep. None of them offers read_many_files or
// search_file_content any more; those names stay for older versions.

// readFileSources are the fields a one-file read names its file in.
var readFileSources = []Source{{Field: "file_path"}, {Field: "absolute_path"}, {Field: "filePath"}, {Field: "path"}}

// claudeReads: Claude Code's Read {file_path, offset, limit}, Grep
// {pattern, path, glob, ...} and NotebookRead {notebook_path} (also sent by
// ZCode and by Copilot CLI in the Claude payload shape).
var claudeReads = toolTable{
	{[]string{"Read"}, Tool{Name: "Read", Kind: core.KindRead, Paths: readFileSources}},
	{[]string{"Grep"}, Tool{Name: "Grep", Kind: core.KindRead, Paths: []Source{{Field: "path"}}}},
	{[]string{"NotebookRead"}, Tool{Name: "NotebookRead", Kind: core.KindRead, Paths: []Source{{Field: "notebook_path"}, {Field: "notebookPath"}}}},
}

// geminiReads: Gemini CLI's and Qwen Code's read_file {file_path or
// absolute_path}, read_many_files {paths or include: globs, relative to the
// target dir} and the content search, search_file_content (Gemini) or
// grep_search (Qwen), {pattern, dir_path or path}.
var geminiReads = toolTable{
	{[]string{"read_file"}, Tool{Name: "Read", Kind: core.KindRead, Paths: readFileSources}},
	{[]string{"read_many_files"}, Tool{Name: "ReadMany", Kind: core.KindRead,
		Paths: []Source{{Field: "paths", List: true}, {Field: "include", List: true}}}},
	{[]string{"search_file_content", "grep_search"}, Tool{Name: "Grep", Kind: core.KindRead,
		Paths: []Source{{Field: "dir_path"}, {Field: "path"}}}},
}

// copilotReads: Copilot CLI's own view {path} (its Claude-shaped payloads
// use claudeReads).
var copilotReads = toolTable{
	{[]string{"view"}, Tool{Name: "Read", Kind: core.KindRead, Paths: []Source{{Field: "path"}}}},
}

// opencodeReads: opencode's and Kilo's read {filePath, offset, limit} and
// grep {pattern, path, include} (1.18.33, 7.7.7), and Pi's read {path,
// offset, limit} and grep {pattern, path} (0.73.1): one shape. Their JS
// plugins see every call, so these need no matcher.
var opencodeReads = toolTable{
	{[]string{"read"}, Tool{Name: "Read", Kind: core.KindRead, Paths: readFileSources}},
	{[]string{"grep"}, Tool{Name: "Grep", Kind: core.KindRead, Paths: []Source{{Field: "path"}}}},
}

// clineReads: Cline's read_files {files: [{path, start_line, end_line}]}
// (3.0.65). Its search_codebase {queries} searches the workspace only.
var clineReads = toolTable{
	{[]string{"read_files"}, Tool{Name: "ReadMany", Kind: core.KindRead, Paths: []Source{{Field: "files", Edits: true}}}},
}
