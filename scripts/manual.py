#!/usr/bin/env python3
"""Writes prolific(1), a man(7) page, from the argument parser's own description of the commands.

Usage: scripts/manual.py PROLIFIC > prolific.1

It runs `PROLIFIC --experimental-dump-help` (swift-argument-parser's JSON of every command, option
and help text), so the page says exactly what `prolific help` says and can't drift from it.
swift-argument-parser's `generate-manual` plugin does the same, but it needs its own release build
of the whole package, which `make install` and its test should not pay for.
"""
import json
import subprocess
import sys

# Sections after COMMANDS: what the help texts don't say.
EPILOGUE = r"""
.SH EXIT STATUS
.TP
.B 0
The command did what it was asked.
.TP
.B 1
It refused, or found errors; each is printed as
.IR path : line : column ": error: " message
(or just
.BI "error: " message
when no file is involved). A refused command changes nothing, with two exceptions, each saying
what it did: a
.B \-\-commit
whose git step fails after the change was made leaves the change, uncommitted; and
.B close \-\-due
that could not close one round keeps the others it closed (committed, with
.BR \-\-commit ).
.TP
.B 64
The arguments could not be parsed.
.SH FILES
.TP
.I Content/
The content directory (see
.BR \-\-content ):
.IR prolific.yml ,
.IR users/ ,
.IR projects/ ,
.I reports/
(readers' reports of snippets, for moderation).
.TP
.I Templates/
The site's templates, beside the content directory.
.TP
.I Site/
Where
.B prolific build
writes the site.
.SH ENVIRONMENT
.TP
.B PROLIFIC_FORGE_LOGIN
The forge account that opened the pull request, for
.B prolific check \-\-since
when
.B \-\-forge\-login
is not given (empty counts as unset). A player whose profile names a
.B forge
login must then be that login, and a maintainer's email counts only if a profile at that revision
lists both the email and the login. CI sets it from the forge's record of who opened the pull
request; see docs/rules.md, "Pull-request checks".
.SH SEE ALSO
.BR git (1)
.PP
README.md, CONTRIBUTING.md and docs/ in Prolific's source.
"""


def escape(text):
    """Roff-safe text: backslashes and hyphens escaped, no line starting with a control character."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    lines = []
    for line in text.split("\n"):
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def visible(arguments):
    return [a for a in arguments or [] if a.get("shouldDisplay", True)]


def option_name(argument):
    name = argument.get("preferredName") or (argument.get("names") or [{}])[0]
    dashes = "-" if name.get("kind") == "short" else "--"
    return dashes + name.get("name", "")


def synopsis_item(argument):
    """One argument as the synopsis shows it, in roff: --name <value>, [<optional>], <ids> ..."""
    value = "\\fI<%s>\\fR" % escape(argument["valueName"])
    if argument["kind"] == "positional":
        text = value
    elif argument["kind"] == "flag":
        text = "\\fB%s\\fR" % escape(option_name(argument))
    else:
        text = "\\fB%s\\fR %s" % (escape(option_name(argument)), value)
    if argument.get("isRepeating"):
        text += " ..."
    if argument.get("isOptional"):
        text = "[" + text + "]"
    return text


def describe(argument):
    """A .TP entry for one argument: its names and value, then its help and default."""
    if argument["kind"] == "positional":
        head = "\\fI<%s>\\fR" % escape(argument["valueName"])
    else:
        names = ", ".join("\\fB%s\\fR" % escape(("-" if n["kind"] == "short" else "--") + n["name"]) for n in argument["names"])
        head = names if argument["kind"] == "flag" else "%s \\fI<%s>\\fR" % (names, escape(argument["valueName"]))
    text = argument.get("abstract", "")
    if argument.get("defaultValue") is not None and argument["kind"] != "flag":
        text += " (default: %s)" % argument["defaultValue"]
    if argument.get("discussion"):
        text += "\n" + argument["discussion"]
    return ".TP\n%s\n%s" % (head, escape(text))


def leaves(command, path):
    """Every command that runs (has no subcommands), with its full name, depth first."""
    subcommands = [c for c in command.get("subcommands") or [] if c.get("shouldDisplay", True) and c["commandName"] != "help"]
    if not subcommands:
        return [(path, command)]
    found = []
    for sub in subcommands:
        found += leaves(sub, path + [sub["commandName"]])
    return found


def key(argument):
    return (argument["kind"], option_name(argument) if argument["kind"] != "positional" else argument["valueName"])


def page(info, version):
    root = info["command"]
    name = root["commandName"]
    commands = leaves(root, [name])
    # Options every command takes (--content, --now, --help) are described once.
    common = set.intersection(*(set(key(a) for a in visible(c.get("arguments"))) for _, c in commands))
    out = [
        '.TH %s 1 "" "%s %s" "Prolific Manual"' % (name.upper(), name, escape(version)),
        ".SH NAME",
        "%s \\- %s" % (name, escape(root.get("abstract", ""))),
        ".SH SYNOPSIS",
        ".B %s" % name,
        "\\fIcommand\\fR [\\fIoptions\\fR]",
        ".SH DESCRIPTION",
        escape(root.get("abstract", "")),
    ]
    if root.get("discussion"):
        out += [".PP", escape(root["discussion"])]
    out += [".PP", "Each command is described below; \\fB%s help\\fR \\fIcommand\\fR says the same." % name]
    out.append(".SH COMMANDS")
    for path, command in commands:
        own = [a for a in visible(command.get("arguments")) if key(a) not in common]
        out += [".SS %s" % escape(" ".join(path)), ".B %s" % escape(" ".join(path))]
        if own:
            out.append(" ".join(synopsis_item(a) for a in own))
        out += [".PP", escape(command.get("abstract", ""))]
        if command.get("discussion"):
            out += [".PP", escape(command["discussion"])]
        if own:
            out.append(".RS")
            out += [describe(a) for a in own]
            out.append(".RE")
    first = commands[0][1]
    out.append(".SH OPTIONS OF EVERY COMMAND")
    out += [describe(a) for a in visible(first.get("arguments")) if key(a) in common]
    out += [describe(a) for a in visible(root.get("arguments")) if key(a) not in common]
    return "\n".join(out) + EPILOGUE


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: manual.py PROLIFIC > prolific.1")
    binary = sys.argv[1]
    info = json.loads(subprocess.run([binary, "--experimental-dump-help"], check=True, capture_output=True, text=True).stdout)
    if info.get("serializationVersion") != 0:
        sys.exit("manual.py: unknown --experimental-dump-help version %r; expected 0" % info.get("serializationVersion"))
    version = subprocess.run([binary, "--version"], check=True, capture_output=True, text=True).stdout.strip()
    sys.stdout.write(page(info, version))


if __name__ == "__main__":
    main()
