package shellkind

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/mcpgen/mcpgen/spec"
)

// operands is what mcpgen knows of how a program reads the operands after
// a literal `--`: an allow-list. A program it does not know may run its
// operands as code or as commands (awk's program, `sh -c` and `python3 -c`
// code, the commands of xargs, env, timeout, nice, sudo, ssh, find -exec,
// kubectl exec ...), so an argument reaches no operand of such a program.
type operands int

const (
	// unknownOperands: no operand is known to be data.
	unknownOperands operands = iota
	// dataOperands: every operand after `--` is data (a file, a pattern, a
	// name): the programs of dataPrograms.
	dataOperands
	// shellOperands: a shell, whose first operand is its program text
	// (the -c string, or the script file); what follows is data ($0, $1...).
	shellOperands
	// scriptOperands: a script given by its path, run by its #! line; its
	// operands are its own positional parameters, data to the script the
	// config's author wrote.
	scriptOperands
	// codeOperands: a program known to run an operand as code or as a
	// command (an interpreter, awk, sed, jq, xargs, env...): no operand
	// is data.
	codeOperands
	// pythonOperands: python, whose operands after a literal `-c
	// PROGRAM` are its sys.argv, data; the rest is code.
	pythonOperands
)

// dataPrograms read every operand after `--` as data and never run one.
var dataPrograms = setOf("grep egrep fgrep rg ls cat tac head tail wc nl stat file du tree sort uniq cut " +
	"paste join comm diff cmp fold fmt expand unexpand rev column tr basename dirname realpath readlink " +
	"echo sleep seq base32 base64 md5sum sha1sum sha224sum sha256sum sha384sum sha512sum b2sum cksum " +
	"strings od zcat gzip gunzip bzip2 bunzip2 xz unxz mkdir rmdir touch cp mv rm ln")

// shells run their first operand (or -c string) as their program.
var shells = setOf("sh bash dash zsh ksh ksh93 mksh pdksh ash yash posh rbash")

// codePrograms run an operand (or an option's value) as code or as a
// command: interpreters, text programs, database clients and programs
// that run another.
var codePrograms = setOf("python python2 python3 pypy pypy3 node nodejs deno bun perl ruby php lua luajit " +
	"tclsh wish Rscript R pwsh powershell osascript awk gawk mawk nawk busybox sed gsed jq gojq jaq yq " +
	"sqlite3 duckdb psql mysql mariadb redis-cli mongosh xargs env timeout nice nohup sudo doas su runuser " +
	"ssh chroot setsid stdbuf watch time strace ltrace ionice taskset unshare nsenter flock parallel exec " +
	"command eval vim vi nvim emacs ex ed gdb make")

// pythons read the operands after `-c PROGRAM` as sys.argv.
var pythons = setOf("python python2 python3 pypy pypy3")

// codeOptions take program text or a command as their value, in the
// programs everyone knows (a program of the config's declares its own in
// code_options).
var codeOptions = setOf("-c -e -E --eval --exec -exec -execdir -ok -okdir --command --rsh -ex --init-file " +
	"--rcfile --to-command --use-compress-program --compress-program --upload-pack --receive-pack --pager " +
	"--editor --pre --exec-path --entrypoint --unzip-command --checkpoint-action --info-script " +
	"--new-volume-script --rsync-path --proxy-command")

// execOptions make the rest of find's command line, up to `;` or `+`, a
// command it runs.
var execOptions = setOf("-exec -execdir -ok -okdir")

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// programOperands tells how the program named name (command[0] as written)
// reads its operands. A bare name is the system's program of that name. A
// path is looked at: a symbolic link counts as its target (a shell under
// another name is still a shell), and a script starting with #! as a
// script of the author's.
func programOperands(name, resolved string) (operands, string) {
	base := filepath.Base(name)
	if strings.ContainsRune(name, '/') {
		if target, err := filepath.EvalSymlinks(resolved); err == nil {
			base = filepath.Base(target)
			if !shells[base] && !dataPrograms[base] && hasShebang(target) {
				return scriptOperands, base
			}
		} else {
			return unknownOperands, base
		}
	}
	switch {
	case shells[base]:
		return shellOperands, base
	case pythons[base]:
		return pythonOperands, base
	case codePrograms[base]:
		return codeOperands, base
	case dataPrograms[base]:
		return dataOperands, base
	}
	return unknownOperands, base
}

// hasShebang reports whether path is a regular file starting with #!. It
// never blocks: a FIFO or device is not a script.
func hasShebang(path string) bool {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	head := make([]byte, 2)
	n, _ := f.Read(head)
	return bytes.Equal(head[:n], []byte("#!"))
}

// dataFrom returns the index in cmd (command[0] is the program) of the
// first element the program reads as data, all later ones too; len(cmd)
// or more when none is. Only dataFrom's positions after a literal `--`
// may carry an argument.
// elems[i] is command[i+1].
func (o operands) dataFrom(cmd []spec.Value, elems []elem) int {
	switch o {
	case dataOperands, scriptOperands:
		return 1
	case shellOperands:
		return shellTextAt(cmd, elems) + 1
	case pythonOperands:
		return pythonArgvAt(cmd, elems)
	}
	return len(cmd)
}

// pythonArgvAt returns the index in cmd of the first element after a
// literal `-c PROGRAM` when every element before it is written in the
// config and none is -m (which runs a module); len(cmd) otherwise.
func pythonArgvAt(cmd []spec.Value, elems []elem) int {
	for i := 1; i+1 < len(cmd); i++ {
		if !elems[i-1].v.IsConst() || cmd[i].Node.Value == "-m" {
			return len(cmd)
		}
		if cmd[i].Node.Value == "-c" {
			if !elems[i].v.IsConst() {
				return len(cmd)
			}
			return i + 2
		}
	}
	return len(cmd)
}

// shellTextAt returns the index of a shell's program text in cmd: the
// first operand after its options, which is the -c string or the script
// file. An element that is not written in the config before it (an
// expression, even one choosing among written options) could be an
// option that changes which operand that is: then no position is known.
func shellTextAt(cmd []spec.Value, elems []elem) int {
	for i := 1; i < len(cmd); i++ {
		if !elems[i-1].v.IsConst() {
			return len(cmd)
		}
		v := cmd[i].Node.Value
		switch {
		case v == "--":
			return i + 1
		case v == "-o" || v == "+o" || v == "-O" || v == "+O" || v == "--rcfile" || v == "--init-file":
			i++ // an option with a value
		case len(v) > 1 && (v[0] == '-' || v[0] == '+'):
		default:
			return i
		}
	}
	return len(cmd)
}
