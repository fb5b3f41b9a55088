export interface PromptPeople {
  company: string;
  user: { id: string; name: string; title: string };
  from: { id: string; name: string; title: string };
}

function who(p: { id: string; name: string; title: string }): string {
  return p.title ? `${p.name} (${p.title}, user ${p.id})` : `${p.name} (user ${p.id})`;
}

/**
 * The prompt of a turn (seed 000 §5): a fixed preamble naming the user the agent is signed in as,
 * saying erp is on the path and erp docs helps, pointing at handbook/; then the request.
 */
export function turnPrompt(people: PromptPeople, date: string, request: string): string {
  return [
    `You are signed in to the ERP of ${people.company} as ${who(people.user)}.`,
    'The `erp` command is on your PATH and already signed in as you: `erp whoami` shows your role, your approval limits and the business date; `erp docs` lists the API, and `erp docs <word>` explains the endpoints and handbook paragraphs that mention a word.',
    'The company handbook is in handbook/ in this folder. Follow it.',
    'This folder and everything in the ERP persist from one working day to the next: earlier work, and notes left here, are still in place.',
    '',
    `Request from ${who(people.from)}, ${date}:`,
    '',
    request.trim(),
    '',
  ].join('\n');
}
