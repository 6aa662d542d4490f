package cli

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Flag is one flag as -help and the reference show it.
type Flag struct {
	Name  string // without the dash
	Arg   string // what it takes ("duration", "ADDR"), "" for a switch
	Def   string // its default as given on a command line, "" for none worth showing
	Usage string // what it does, the argument's name unquoted
	Group string
}

// Flags returns the flags of the groups keep keeps (every group when
// keep is nil), in the order of their groups, each group's by name.
func (fs *FlagSet) Flags(keep func(group string) bool) []Flag {
	var flags []Flag
	fs.VisitAll(func(f *flag.Flag) {
		g := fs.of[f.Name]
		if keep != nil && !keep(g) {
			return
		}
		arg, usage := unquote(f)
		def := f.DefValue
		switch def {
		case "", "0", "0s", "false":
			def = "" // the zero value: nothing worth showing
		}
		flags = append(flags, Flag{Name: f.Name, Arg: arg, Def: def, Usage: usage, Group: g})
	})
	order := map[string]int{}
	for i, g := range fs.groups {
		order[g] = i
	}
	sort.SliceStable(flags, func(i, j int) bool { return order[flags[i].Group] < order[flags[j].Group] })
	return flags
}

// unquote returns the name of what the flag takes, from its usage's
// first `quoted` word or from its kind, and the usage without the quotes.
func unquote(f *flag.Flag) (arg, usage string) {
	usage = f.Usage
	if i := strings.IndexByte(usage, '`'); i >= 0 {
		if j := strings.IndexByte(usage[i+1:], '`'); j >= 0 {
			arg = usage[i+1 : i+1+j]
			return arg, usage[:i] + arg + usage[i+1+j+1:]
		}
	}
	switch {
	case isBool(f):
		return "", usage
	case isString(f):
		return "string", usage
	}
	if r, ok := f.Value.(*refusing); ok {
		if k, ok := r.Value.(interface{ kind() string }); ok {
			return k.kind(), usage
		}
	}
	return "value", usage
}

// WriteHelp writes the flags of the groups keep keeps as -help lists
// them: each group's title, then its flags, each with what it takes,
// then what it does and its default.
func (fs *FlagSet) WriteHelp(w io.Writer, keep func(group string) bool) {
	group := "\x00"
	for _, f := range fs.Flags(keep) {
		if f.Group != group {
			group = f.Group
			if group != "" {
				fmt.Fprintf(w, "\n%s:\n", strings.ToUpper(group[:1])+group[1:])
			}
		}
		fmt.Fprintf(w, "  -%s", f.Name)
		if f.Arg != "" {
			fmt.Fprintf(w, " %s", f.Arg)
		}
		fmt.Fprintf(w, "\n    \t%s", strings.ReplaceAll(f.Usage, "\n", "\n    \t"))
		if f.Def != "" {
			fmt.Fprintf(w, " (default %s)", f.quotedDef(fs))
		}
		fmt.Fprintln(w)
	}
}

// quotedDef is the default, quoted if it is a string's (":7777").
func (f Flag) quotedDef(fs *FlagSet) string {
	if isString(fs.Lookup(f.Name)) {
		return fmt.Sprintf("%q", f.Def)
	}
	return f.Def
}

// WriteMarkdown writes the flags of the groups keep keeps as a Markdown
// table, flag, default and usage, one table per group under its title.
func (fs *FlagSet) WriteMarkdown(w io.Writer, keep func(group string) bool) {
	group := "\x00"
	for _, f := range fs.Flags(keep) {
		if f.Group != group {
			if group != "\x00" {
				fmt.Fprintln(w)
			}
			group = f.Group
			if group != "" {
				fmt.Fprintf(w, "%s:\n\n", strings.ToUpper(group[:1])+group[1:])
			}
			fmt.Fprintln(w, "| flag | default | usage |")
			fmt.Fprintln(w, "| --- | --- | --- |")
		}
		name := "`-" + f.Name
		if f.Arg != "" {
			name += " " + f.Arg
		}
		def := ""
		if f.Def != "" {
			def = "`" + f.quotedDef(fs) + "`"
		}
		fmt.Fprintf(w, "| %s` | %s | %s |\n", name, def, strings.ReplaceAll(f.Usage, "|", "\\|"))
	}
}

// isString reports whether f is a plain string flag.
func isString(f *flag.Flag) bool {
	_, ok := f.Value.(*stringValue)
	return ok
}
