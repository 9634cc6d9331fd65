import ProlificCore

extension ContentReader {
    /// Every report in `reports/` in name order, with the problems of those that don't parse.
    public func loadReports(into problems: inout [Diagnostic]) -> [Report] {
        let folder = layout.reportsFolder
        do { try requireRealFolders(folder) } catch {
            problems += error.all
            return []
        }
        let entries: [FileSystem.Entry]
        do { entries = try FileSystem.list(folder) ?? [] } catch {
            problems.append(Diagnostic(path: folder, message: error.message))
            return []
        }
        var reports: [Report] = []
        for entry in entries where !(entry.kind == .file && ContentLayout.isIgnored(entry.name)) {
            let path = "\(folder)/\(entry.name)"
            guard entry.kind == .file, entry.name.hasSuffix(".md"), let id = ReportID(entry.name.dropLast(3)) else {
                let what = entry.kind == .file ? "file" : entry.kind == .directory ? "folder" : "symbolic link (links are not allowed in content)"
                problems.append(Diagnostic(path: path, message: "unexpected \(what); expected a report named <reporter>-<yyyymmddhhmmss>.md"))
                continue
            }
            let text: String
            do { text = try FileSystem.readText(path) } catch {
                problems.append(Diagnostic(path: path, position: error.position, message: error.message))
                continue
            }
            do { reports.append(try ReportFile.parse(text, path: path, id: id)) } catch { problems += error.all }
        }
        return reports
    }
}
