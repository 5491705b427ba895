import { dirname } from "node:path";
import * as vscode from "vscode";
import type { CheckSeverity } from "./check-report";
import { isRunvilPrompt } from "./detect-prompt";
import { type EditorDiagnostic, toEditorDiagnostic } from "./editor-diagnostic";
import { findRunvil } from "./find-runvil";
import { runCheck } from "./run-check";

const LANGUAGE = "runvil-prompt";

const SEVERITY: Record<CheckSeverity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
};

function toVscode(diagnostic: EditorDiagnostic): vscode.Diagnostic {
  const range = new vscode.Range(
    diagnostic.start.line,
    diagnostic.start.character,
    diagnostic.end.line,
    diagnostic.end.character,
  );
  const out = new vscode.Diagnostic(range, diagnostic.message, SEVERITY[diagnostic.severity]);
  out.code = diagnostic.code;
  out.source = diagnostic.source;
  return out;
}

/** Starts the extension: prompt detection for Markdown files and diagnostics on open and save. */
export function activate(context: vscode.ExtensionContext): void {
  const diagnostics = vscode.languages.createDiagnosticCollection("runvil");
  const output = vscode.window.createOutputChannel("Runvil");
  const running = new Map<string, number>();
  context.subscriptions.push(diagnostics, output);

  const settings = () => vscode.workspace.getConfiguration("runvil");

  async function check(document: vscode.TextDocument): Promise<void> {
    if (document.languageId !== LANGUAGE || document.uri.scheme !== "file") return;
    if (!settings().get<boolean>("checkOnSave", true)) return;
    const key = document.uri.toString();
    // Only the newest check of a document shows its result.
    const generation = (running.get(key) ?? 0) + 1;
    running.set(key, generation);
    const file = document.uri.fsPath;
    const command = findRunvil(dirname(file), settings().get<string>("path", ""));
    try {
      const report = await runCheck(command, file, dirname(file));
      if (running.get(key) !== generation) return;
      diagnostics.set(
        document.uri,
        report.diagnostics.map((d) =>
          toVscode(
            toEditorDiagnostic(
              d,
              (line) => (line < document.lineCount ? document.lineAt(line).text.length : undefined),
              document.lineCount,
            ),
          ),
        ),
      );
    } catch (error) {
      if (running.get(key) !== generation) return;
      diagnostics.delete(document.uri);
      output.appendLine((error as Error).message);
    }
  }

  async function opened(document: vscode.TextDocument): Promise<void> {
    if (
      document.languageId === "markdown" &&
      settings().get<boolean>("detectPrompts", true) &&
      isRunvilPrompt(document.getText())
    ) {
      // Changing the language reopens the document; the open event of that one checks it.
      await vscode.languages.setTextDocumentLanguage(document, LANGUAGE);
      return;
    }
    await check(document);
  }

  context.subscriptions.push(
    vscode.workspace.onDidOpenTextDocument((document) => void opened(document)),
    vscode.workspace.onDidSaveTextDocument((document) => void check(document)),
    vscode.workspace.onDidCloseTextDocument((document) => {
      diagnostics.delete(document.uri);
      running.delete(document.uri.toString());
    }),
  );
  for (const document of vscode.workspace.textDocuments) void opened(document);
}

/** Nothing to stop: each check is a short-lived child process. */
export function deactivate(): void {}
