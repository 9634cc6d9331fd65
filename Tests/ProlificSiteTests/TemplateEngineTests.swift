import Testing
@testable import ProlificSite

/// The Mustache engine: cases from the Mustache spec (github.com/mustache/spec), then what the site
/// relies on beyond it: strict names, parse errors with their positions, hostile values.
@Suite struct TemplateEngineTests {
    struct Rendered {
        var text: String
        var missing: String?
        var tooDeep: Bool
    }

    /// Renders `template` over `data`, with `partials`, as the spec's tests do (no legacy first line).
    func render(
        _ template: String, _ data: [String: Any] = [:], partials: [String: String] = [:], legacyFirstLine: Bool = false
    ) throws -> Rendered {
        var templates: [String: [TemplateNode]] = [:]
        for (name, text) in partials.merging(["main": template], uniquingKeysWith: { $1 }) {
            templates[name] = try TemplateParser.parse(Array(text.utf8), legacyFirstLine: legacyFirstLine)
        }
        let program = TemplateProgram(templates: templates)
        #expect(program.isConsistent)
        let rendered = TemplateRenderer.render(program, template: "main", root: data, capacity: 64)
        return Rendered(
            text: String(decoding: rendered?.output ?? [], as: UTF8.self), missing: rendered?.missing,
            tooDeep: rendered?.tooDeep ?? false)
    }

    func text(_ template: String, _ data: [String: Any] = [:], partials: [String: String] = [:]) throws -> String {
        try render(template, data, partials: partials).text
    }

    /// The error `template` fails with, and its line and column: `unfinishedTag 1:5`.
    func syntaxError(_ template: String) -> String? {
        let bytes = Array(template.utf8)
        do {
            _ = try TemplateParser.parse(bytes, legacyFirstLine: true)
            return nil
        } catch {
            let (line, column) = error.position(in: bytes)
            return "\(error.kind) \(line):\(column)"
        }
    }

    // MARK: - Interpolation

    @Test func interpolation() throws {
        #expect(try text("Hello from {Mustache}!\n") == "Hello from {Mustache}!\n")
        #expect(try text("Hello, {{subject}}!\n", ["subject": "world"]) == "Hello, world!\n")
        #expect(try text("{{forbidden}}", ["forbidden": "& \" < >"]) == "&amp; &quot; &lt; &gt;")
        #expect(try text("{{{forbidden}}}", ["forbidden": "& \" < >"]) == "& \" < >")
        #expect(try text("{{&forbidden}}", ["forbidden": "& \" < >"]) == "& \" < >")
        #expect(try text("\"{{mph}} miles an hour!\"", ["mph": 85]) == "\"85 miles an hour!\"")
        #expect(try text("{{power}} jiggawatts!", ["power": 1.21]) == "1.21 jiggawatts!")
        #expect(try text("{{yes}} {{no}}", ["yes": true, "no": false]) == "true false")
        #expect(try text("| {{string}} |", ["string": "---"]) == "| --- |")
        #expect(try text("  {{string}}\n", ["string": "---"]) == "  ---\n")
        #expect(try text("|{{ string }}|{{{ string }}}|{{& string }}|", ["string": "---"]) == "|---|---|---|")
    }

    @Test func dottedNames() throws {
        let person: [String: Any] = ["person": ["name": "Joe"] as [String: Any]]
        #expect(try text("\"{{person.name}}\" == \"{{#person}}{{name}}{{/person}}\"", person) == "\"Joe\" == \"Joe\"")
        let deep: [String: Any] = ["a": ["b": ["c": ["d": ["e": ["name": "Phil"]]]]]]
        #expect(try text("{{a.b.c.d.e.name}}", deep) == "Phil")
        // A broken chain renders nothing, and isn't an unknown name: its first part exists.
        let broken = try render("\"{{a.b.c}}\" \"{{a.b.c.name}}\"", ["a": [String: Any](), "c": ["name": "Jim"]])
        #expect(broken.text == "\"\" \"\"")
        #expect(broken.missing == nil)
        // The first part is resolved up the stack, the rest only inside it.
        let initial: [String: Any] = [
            "a": ["b": ["c": ["d": ["e": ["name": "Phil"]]]]], "b": ["c": ["d": ["e": ["name": "Wrong"]]]],
        ]
        #expect(try text("{{#a}}{{b.c.d.e.name}}{{/a}}", initial) == "Phil")
        let precedence: [String: Any] = ["a": ["b": [String: Any]()], "b": ["c": "ERROR"]]
        #expect(try text("{{#a}}{{b.c}}{{/a}}", precedence) == "")
        #expect(try text("{{#strings}}({{.}}){{/strings}}", ["strings": ["a", "b"]]) == "(a)(b)")
        #expect(try text("{{site.title}}", ["site": ["title": "T"] as [String: String]]) == "T")
    }

    // MARK: - Sections

    @Test func sections() throws {
        #expect(try text("\"{{#boolean}}This should be rendered.{{/boolean}}\"", ["boolean": true]) == "\"This should be rendered.\"")
        #expect(try text("\"{{#boolean}}This should not be rendered.{{/boolean}}\"", ["boolean": false]) == "\"\"")
        #expect(try text("\"{{#context}}Hi {{name}}.{{/context}}\"", ["context": ["name": "Joe"]]) == "\"Hi Joe.\"")
        let parents: [String: Any] = ["a": "foo", "b": "wrong", "sec": ["b": "bar"], "c": ["d": "baz"]]
        #expect(try text("{{#sec}}{{a}}, {{b}}, {{c.d}}{{/sec}}", parents) == "foo, bar, baz")
        #expect(try text("{{#foo}}{{.}} is {{foo}}{{/foo}}", ["foo": "bar"]) == "bar is bar")
        let list: [[String: Any]] = [["item": 1], ["item": 2], ["item": 3]]
        #expect(try text("\"{{#list}}{{item}}{{/list}}\"", ["list": list]) == "\"123\"")
        #expect(try text("\"{{#list}}Yay lists!{{/list}}\"", ["list": [[String: Any]]()]) == "\"\"")
        #expect(try text("{{#list}}({{.}}){{/list}}", ["list": [1, 2, 3]]) == "(1)(2)(3)")
        #expect(try text("{{#list}}({{.}}){{/list}}", ["list": ["a", "b"] as [Any]]) == "(a)(b)")
        #expect(try text("| A {{#bool}}B {{#bool}}C{{/bool}} D{{/bool}} E |", ["bool": true]) == "| A B C D E |")
        #expect(try text("| A {{#bool}}B {{#bool}}C{{/bool}} D{{/bool}} E |", ["bool": false]) == "| A  E |")
        #expect(try text("\"{{#a.b.c}}Here{{/a.b.c}}\"", ["a": ["b": ["c": true]]]) == "\"Here\"")
        // Lists of dictionaries of lists, as the calendar gives its weeks.
        let weeks: [[String: [[String: Any]]]] = [["days": [["day": 1], ["day": 2]]], ["days": [["day": 3]]]]
        #expect(try text("{{#weeks}}[{{#days}}{{day}}{{/days}}]{{/weeks}}", ["weeks": weeks]) == "[12][3]")
        #expect(try text("{{#favorites}}{{title}}{{/favorites}}", ["favorites": [["title": "T"]] as [[String: String]]]) == "T")
        // Deeply nested contexts climb back down the stack.
        let nested: [String: Any] = ["a": ["one": 1], "b": ["two": 2], "c": ["three": 3]]
        #expect(try text("{{#a}}{{one}}{{#b}}{{one}}{{two}}{{#c}}{{one}}{{two}}{{three}}{{/c}}{{/b}}{{/a}}", nested) == "112123")
        // An empty string and 0 render the section once, as they always did here.
        #expect(try text("{{#s}}[{{.}}]{{/s}}{{#n}}[{{.}}]{{/n}}", ["s": "", "n": 0]) == "[][0]")
    }

    @Test func sectionWhitespace() throws {
        let yes: [String: Any] = ["boolean": true]
        #expect(try text(" | {{#boolean}}\t|\t{{/boolean}} | \n", yes) == " | \t|\t | \n")
        #expect(try text(" | {{#boolean}} {{! Important Whitespace }}\n {{/boolean}} | \n", yes) == " |  \n  | \n")
        #expect(try text(" {{#boolean}}YES{{/boolean}}\n {{#boolean}}GOOD{{/boolean}}\n", yes) == " YES\n GOOD\n")
        #expect(try text("| This Is\n{{#boolean}}\n|\n{{/boolean}}\n| A Line\n", yes) == "| This Is\n|\n| A Line\n")
        #expect(try text("| This Is\n  {{#boolean}}\n|\n  {{/boolean}}\n| A Line\n", yes) == "| This Is\n|\n| A Line\n")
        #expect(try text("|\r\n{{#boolean}}\r\n{{/boolean}}\r\n|", yes) == "|\r\n|")
        #expect(try text("  {{#boolean}}\n#{{/boolean}}\n/", yes) == "#\n/")
        #expect(try text("#{{#boolean}}\n/\n  {{/boolean}}", yes) == "#\n/\n")
        #expect(try text("|{{# boolean }}={{/ boolean }}|", yes) == "|=|")
    }

    @Test func invertedSections() throws {
        #expect(try text("\"{{^boolean}}This should be rendered.{{/boolean}}\"", ["boolean": false]) == "\"This should be rendered.\"")
        #expect(try text("\"{{^boolean}}This should not be rendered.{{/boolean}}\"", ["boolean": true]) == "\"\"")
        #expect(try text("\"{{^context}}Hi {{name}}.{{/context}}\"", ["context": ["name": "Joe"]]) == "\"\"")
        #expect(try text("\"{{^list}}{{n}}{{/list}}\"", ["list": [["n": 1]] as [[String: Any]]]) == "\"\"")
        #expect(try text("\"{{^list}}Yay lists!{{/list}}\"", ["list": [[String: Any]]()]) == "\"Yay lists!\"")
        #expect(try text("| A {{^bool}}B {{^bool}}C{{/bool}} D{{/bool}} E |", ["bool": false]) == "| A B C D E |")
        #expect(try text("\"{{^a.b.c}}Not Here{{/a.b.c}}\"", ["a": ["b": ["c": false]]]) == "\"Not Here\"")
        #expect(try text("\"{{^a.b.c}}Not Here{{/a.b.c}}\"", ["a": [String: Any]()]) == "\"Not Here\"")
        #expect(try text("| This Is\n{{^boolean}}\n|\n{{/boolean}}\n| A Line\n", ["boolean": false]) == "| This Is\n|\n| A Line\n")
        #expect(try text("  {{^boolean}}\n^{{/boolean}}\n/", ["boolean": false]) == "^\n/")
    }

    // MARK: - Comments

    @Test func comments() throws {
        #expect(try text("12345{{! Comment Block! }}67890") == "1234567890")
        #expect(try text("12345{{!\n  This is a\n  multi-line comment...\n}}67890\n") == "1234567890\n")
        #expect(try text("Begin.\n{{! Comment Block! }}\nEnd.\n") == "Begin.\nEnd.\n")
        #expect(try text("Begin.\n  {{! Indented Comment Block! }}\nEnd.\n") == "Begin.\nEnd.\n")
        #expect(try text("|\r\n{{! Standalone Comment }}\r\n|") == "|\r\n|")
        #expect(try text("  {{! I'm Still Standalone }}\n!") == "!")
        #expect(try text("!\n  {{! I'm Still Standalone }}") == "!\n")
        #expect(try text("Begin.\n{{!\nSomething's going on here...\n}}\nEnd.\n") == "Begin.\nEnd.\n")
        #expect(try text("  12 {{! 34 }}\n") == "  12 \n")
        #expect(try text("12345 {{! Comment Block! }} 67890") == "12345  67890")
    }

    // MARK: - Partials

    @Test func partials() throws {
        #expect(try text("\"{{>text}}\"", partials: ["text": "from partial"]) == "\"from partial\"")
        #expect(try text("\"{{>text}}\"") == "\"\"")
        #expect(try text("\"{{>partial}}\"", ["text": "content"], partials: ["partial": "*{{text}}*"]) == "\"*content*\"")
        let tree: [String: Any] = ["content": "X", "nodes": [["content": "Y", "nodes": [[String: Any]]()]] as [[String: Any]]]
        #expect(try text("{{>node}}", tree, partials: ["node": "{{content}}<{{#nodes}}{{>node}}{{/nodes}}>"]) == "X<Y<>>")
        #expect(try text("| {{>partial}} |", partials: ["partial": "\t|\t"]) == "| \t|\t |")
        #expect(try text("  {{data}}  {{> partial}}\n", ["data": "|"], partials: ["partial": ">\n>"]) == "  |  >\n>\n")
        #expect(try text("|\r\n{{>partial}}\r\n|", partials: ["partial": ">"]) == "|\r\n>|")
        #expect(try text("  {{>partial}}\n>", partials: ["partial": ">\n>"]) == "  >\n  >>")
        #expect(try text(">\n  {{>partial}}", partials: ["partial": ">\n>"]) == ">\n  >\n  >")
        #expect(try text("|{{> partial }}|", partials: ["partial": "[]"]) == "|[]|")
    }

    @Test func standalonePartialsAreIndented() throws {
        let rendered = try text(
            "\\\n {{>partial}}\n/\n", ["content": "<\n->"], partials: ["partial": "|\n{{{content}}}\n|\n"])
        #expect(rendered == "\\\n |\n <\n->\n |\n/\n")
    }

    // MARK: - Set delimiters

    @Test func delimiters() throws {
        #expect(try text("{{=<% %>=}}(<%text%>)", ["text": "Hey!"]) == "(Hey!)")
        #expect(try text("({{=[ ]=}}[text])", ["text": "It worked!"]) == "(It worked!)")
        let sections = "[\n{{#section}}\n  {{data}}\n  |data|\n{{/section}}\n\n{{= | | =}}\n|#section|\n  {{data}}\n  |data|\n|/section|\n]\n"
        #expect(
            try text(sections, ["section": true, "data": "I got interpolated."])
                == "[\n  I got interpolated.\n  |data|\n\n  {{data}}\n  I got interpolated.\n]\n")
        let partial = "[ {{>include}} ]\n{{= | | =}}\n[ |>include| ]\n"
        #expect(try text(partial, ["value": "yes"], partials: ["include": ".{{value}}."]) == "[ .yes. ]\n[ .yes. ]\n")
        let post = "[ {{>include}} ]\n[ .{{value}}.  .|value|. ]\n"
        #expect(
            try text(post, ["value": "yes"], partials: ["include": ".{{value}}. {{= | | =}} .|value|."])
                == "[ .yes.  .yes. ]\n[ .yes.  .|value|. ]\n")
        #expect(try text("| {{=@ @=}} |") == "|  |")
        #expect(try text(" | {{=@ @=}}\n") == " | \n")
        #expect(try text("Begin.\n{{=@ @=}}\nEnd.\n") == "Begin.\nEnd.\n")
        #expect(try text("Begin.\n  {{=@ @=}}\nEnd.\n") == "Begin.\nEnd.\n")
        #expect(try text("|\r\n{{= @ @ =}}\r\n|") == "|\r\n|")
        #expect(try text("  {{=@ @=}}\n=") == "=")
        #expect(try text("=\n  {{=@ @=}}") == "=\n")
        #expect(try text("|{{= @   @ =}}|") == "||")
        #expect(try text("{{=<% %>=}}<%{text}%> <%&text%>", ["text": "<b>"]) == "<b> <b>")
    }

    // MARK: - Inheritance

    @Test func blocks() throws {
        #expect(try text("{{$title}}Default title{{/title}}\n") == "Default title\n")
        #expect(try text("{{$foo}}default {{bar}} content{{/foo}}\n", ["bar": "baz"]) == "default baz content\n")
        #expect(try text("{{$foo}}default {{{bar}}} content{{/foo}}\n", ["bar": "<baz>"]) == "default <baz> content\n")
        #expect(try text("{{$foo}}default {{#bar}}{{baz}}{{/bar}} content{{/foo}}\n", ["bar": ["baz": "qux"]]) == "default qux content\n")
        let negative = try render("{{$foo}}default {{^bar}}{{baz}}{{/bar}} content{{/foo}}\n", ["baz": "three"])
        #expect(negative.text == "default three content\n")
        #expect(negative.missing == "bar")
    }

    @Test func parents() throws {
        #expect(try text("{{<include}}{{/include}}\n", partials: ["include": "{{$foo}}default content{{/foo}}"]) == "default content")
        #expect(
            try text("{{<super}}{{$title}}sub template title{{/title}}{{/super}}", partials: ["super": "...{{$title}}Default title{{/title}}..."])
                == "...sub template title...")
        let include = ["include": "{{$var}}var in include{{/var}}"]
        #expect(try text("{{<include}}{{$var}}var in template{{/var}}{{/include}}", ["var": "var in data"], partials: include) == "var in template")
        #expect(try text("{{<include}}{{/include}}", ["var": "var in data"], partials: include) == "var in include")
        #expect(
            try text("test {{<parent}}{{$stuff}}override{{/stuff}}{{/parent}}", partials: ["parent": "{{$stuff}}...{{/stuff}}"])
                == "test override")
        #expect(
            try text(
                "test {{<parent}}{{$stuff}}override1{{/stuff}}{{/parent}} {{<parent}}{{$stuff}}override2{{/stuff}}{{/parent}}\n",
                partials: ["parent": "|{{$stuff}}...{{/stuff}}{{$default}} default{{/default}}|"])
                == "test |override1 default| |override2 default|\n")
        #expect(
            try text("{{<parent}}{{$ballmer}}\npeaked\n\n:(\n{{/ballmer}}{{/parent}}", partials: ["parent": "{{$ballmer}}peaking{{/ballmer}}"])
                == "peaked\n\n:(\n")
        #expect(
            try text(
                "{{<parent}}{{$stuff2}}override two{{/stuff2}}{{/parent}}",
                partials: ["parent": "{{$stuff}}new default one{{/stuff}}, {{$stuff2}}new default two{{/stuff2}}"])
                == "new default one, override two")
        #expect(
            try text("{{>parent}}|{{<parent}}{{/parent}}", partials: ["parent": "{{$foo}}default content{{/foo}}"])
                == "default content|default content")
        #expect(
            try text(
                "{{<parent}} asdfasd {{$foo}}hmm{{/foo}} asdfasdfasdf {{/parent}}", partials: ["parent": "{{$foo}}default content{{/foo}}"])
                == "hmm")
        let scope: [String: Any] = ["fruit": "apples", "nested": ["fruit": "bananas"]]
        #expect(
            try text(
                "{{<parent}}{{$block}}I say {{fruit}}.{{/block}}{{/parent}}", scope,
                partials: ["parent": "{{#nested}}{{$block}}You say {{fruit}}.{{/block}}{{/nested}}"])
                == "I say bananas.")
    }

    @Test func nestedParents() throws {
        let levels = [
            "parent": "{{<older}}{{$a}}p{{/a}}{{/older}}", "older": "{{<grandParent}}{{$a}}o{{/a}}{{/grandParent}}",
            "grandParent": "{{$a}}g{{/a}}",
        ]
        #expect(try text("{{<parent}}{{$a}}c{{/a}}{{/parent}}", partials: levels) == "c")
        #expect(try text("{{<parent}}{{/parent}}", partials: levels) == "p")
        let recursion = [
            "parent": "{{$foo}}default content{{/foo}} {{$bar}}{{<parent2}}{{/parent2}}{{/bar}}",
            "parent2": "{{$foo}}parent2 default content{{/foo}} {{<parent}}{{$bar}}don't recurse{{/bar}}{{/parent}}",
        ]
        #expect(try text("{{<parent}}{{$foo}}override{{/foo}}{{/parent}}", partials: recursion) == "override override override don't recurse")
    }

    @Test func inheritanceWhitespace() throws {
        #expect(
            try text(
                "{{<parent}}{{$nineties}}hammer time{{/nineties}}{{/parent}}",
                partials: ["parent": "stop:\n  {{$nineties}}collaborate and listen{{/nineties}}\n"])
                == "stop:\n  hammer time\n")
        #expect(try text("Hi,\n  {{<parent}}{{/parent}}\n", partials: ["parent": "one\ntwo\n"]) == "Hi,\n  one\n  two\n")
        #expect(
            try text("{{<parent}}{{$block}}\none\ntwo{{/block}}\n{{/parent}}\n", partials: ["parent": "Hi,\n  {{$block}}{{/block}}\n"])
                == "Hi,\n  one\n  two\n")
        #expect(
            try text(
                "{{<parent}}{{$block}}\n    one\n    two\n{{/block}}{{/parent}}\n", partials: ["parent": "Hi,\n  {{$block}}\n  {{/block}}\n"])
                == "Hi,\n  one\n  two\n")
    }

    // MARK: - What the site relies on beyond the spec

    /// The old theme loader's pragma made a first-line tag never standalone, and dropped a blank
    /// first line; `pagination.mustache` keeps the newline after its `{{#pagination}}`.
    @Test func legacyFirstLine() throws {
        let data: [String: Any] = ["on": true]
        #expect(try render("{{#on}}\nx\n{{/on}}\n", data, legacyFirstLine: true).text == "\nx\n")
        #expect(try render("{{#on}}\nx\n{{/on}}\n", data).text == "x\n")
        #expect(try render("  \nx", legacyFirstLine: true).text == "x")
        #expect(try render("  {{#on}}\nx{{/on}}", data, legacyFirstLine: true).text == "  \nx")
        #expect(try render("", legacyFirstLine: true).text == "")
    }

    @Test func unknownNamesAreRecorded() throws {
        #expect(try render("{{titel}}").missing == "titel")
        #expect(try render("{{titel.x}}").missing == "titel")
        #expect(try render("{{^nope}}shown{{/nope}}").text == "shown")
        #expect(try render("{{^nope}}shown{{/nope}}").missing == "nope")
        #expect(try render("{{#nope}}{{inner}}{{/nope}}").missing == "nope")
        // Names in sections that don't render are never looked up.
        #expect(try render("{{#f}}{{nope}}{{/f}}", ["f": false]).missing == nil)
        // A later part that misses renders nothing, as before.
        #expect(try render("{{site.nope}}", ["site": ["title": "T"]]).missing == nil)
        // Found in an item, or below it: not missing.
        #expect(try render("{{#list}}{{name}}{{root}}{{/list}}", ["list": [["name": "a"]], "root": "../"]).missing == nil)
        #expect(try render("{{#list}}{{nope}}{{/list}}", ["list": [["name": "a"]]]).missing == "nope")
        // The first unknown name is the one reported.
        #expect(try render("{{first}}{{second}}").missing == "first")
        #expect(try render(".{{.}}.").missing == nil)
    }

    /// `{{.name}}` looks at the top of the stack only: never up it, and reported missing only at
    /// the page's own values; a later part that misses renders nothing and isn't reported.
    @Test func anchoredNamesLookAtTheTopOnly() throws {
        let data: [String: Any] = ["item": ["name": "in"] as [String: Any], "root": "../"]
        #expect(try text("{{#item}}[{{.name}}][{{.root}}][{{root}}]{{/item}}", data) == "[in][][../]")
        #expect(try render("{{#item}}{{.root}}{{/item}}", data).missing == nil)
        #expect(try text("{{.root}}", data) == "../")
        #expect(try render("{{.nope}}", data).missing == "nope")
        let nested: [String: Any] = ["a": ["b": ["c": "deep"]] as [String: Any]]
        #expect(try text("{{.a.b.c}}", nested) == "deep")
        #expect(try render("{{.a.x}}", nested).text == "")
        #expect(try render("{{.a.x}}", nested).missing == nil)
        #expect(try text("{{#a}}{{.b.c}}{{/a}}", nested) == "deep")
    }

    @Test func selfIncludingTemplatesStop() throws {
        #expect(try render("{{>loop}}", partials: ["loop": "x{{>loop}}{{>loop}}"]).tooDeep)
        #expect(try render("{{<p}}{{$a}}{{$a}}{{/a}}{{/a}}{{/p}}", partials: ["p": "{{$a}}{{/a}}"]).tooDeep)
        #expect(try render("{{>node}}", ["nodes": false], partials: ["node": "{{#nodes}}{{>node}}{{/nodes}}"]).tooDeep == false)
    }

    @Test func syntaxErrorsNameTheirPlace() {
        #expect(syntaxError("<p>\n{{#list}}\n{{/other}}\n") == "closingNameMismatch 3:4")
        #expect(syntaxError("a\n{{/other}}") == "closingNameMismatch 2:4")
        #expect(syntaxError("a\n  {{#open}}\nb\n") == "unclosedSection 2:6")
        #expect(syntaxError("x\n{{<base}}{{$main}}\n") == "unclosedSection 2:13")
        #expect(syntaxError("{{a b}}") == "unfinishedTag 1:5")
        #expect(syntaxError("é\n€{{a b}}") == "unfinishedTag 2:6")
        #expect(syntaxError("{{a") == "unfinishedTag 1:4")
        #expect(syntaxError("text {{") == "unfinishedTag 1:8")
        #expect(syntaxError("{{! never closed") == "unfinishedTag 1:4")
        #expect(syntaxError("{{{a}}") == "unfinishedTag 1:5")
        #expect(syntaxError("{{uppercased(title)}}") == "transform 1:3")
        #expect(syntaxError("{{#reversed(list)}}{{/reversed(list)}}") == "transform 1:4")
        #expect(syntaxError("{{% CONTENT_TYPE: HTML}}") == "pragma 1:3")
        #expect(syntaxError("{{>*name}}") == "dynamicPartial 1:4")
        #expect(syntaxError("{{=<% %>}}") == "invalidDelimiters 1:4")
        #expect(syntaxError("{{<base}}\n{{title}}\n{{/base}}") == "illegalTagInsideParent 2:1")
        #expect(syntaxError("{{}}") == "emptyName 1:3")
        #expect(syntaxError(String(repeating: "{{#a}}", count: 200))?.hasPrefix("tooDeep") == true)
        // Text that only looks like a tag's start is text.
        #expect(syntaxError("a { b } c {") == nil)
    }

    @Test func themeReportsSyntaxErrorsWithTheirMessages() throws {
        var files = Theme.defaultFiles.map { ($0.path, Array($0.contents.utf8)) }
        files.removeAll { $0.0 == "index.mustache" }
        files.append(("index.mustache", Array("<h1>\n  {{uppercased(title)}}</h1>".utf8)))
        do {
            _ = try Theme(files: files.sorted { $0.0 < $1.0 }, folder: "Templates")
            Issue.record("expected an error")
        } catch {
            #expect(
                error.all.map(\.description) == [
                    "Templates/index.mustache:2:5: error: transforms such as {{uppercased(name)}} are not supported: give the page the value it needs"
                ])
        }
    }

    // MARK: - Hostile values

    @Test func valuesAreNeverParsed() throws {
        let rendered = try render("{{a}}|{{{a}}}|{{#list}}{{.}}{{/list}}", ["a": "{{b}}{{>p}}", "list": ["{{#x}}"]])
        #expect(rendered.text == "{{b}}{{&gt;p}}|{{b}}{{>p}}|{{#x}}")
        #expect(rendered.missing == nil)
    }

    @Test func escapingIsBytewise() throws {
        #expect(try text("{{v}}", ["v": "& < > \" '"]) == "&amp; &lt; &gt; &quot; &#39;")
        #expect(try text("{{v}}", ["v": "a\"\u{301} onmouseover=x"]) == "a&quot;\u{301} onmouseover=x")
        #expect(try text("{{v}}", ["v": "x\u{600}\"'<&>\u{200D}\""]) == "x\u{600}&quot;&#39;&lt;&amp;&gt;\u{200D}&quot;")
        #expect(try text("<{{v}}>", ["v": "café 日本"]) == "<café 日本>")
        #expect(try text("{{{v}}}", ["v": "\"\u{301}"]) == "\"\u{301}")
    }
}
