import { frWorkflows } from '../../i18n/fr-workflows';

const t = frWorkflows;

export interface LabelledIdView {
  label: string | null;
  id: string;
}

export interface WorkflowTablesView {
  states: (LabelledIdView & { nature: string; invokes: LabelledIdView[] })[];
  events: (LabelledIdView & { transitions: string[] })[];
}

const th = 'px-3 py-2 font-medium';
const td = 'px-3 py-2 align-top';

function Labelled({ label, id }: LabelledIdView) {
  return (
    <>
      {label ?? t.missing} <code className="font-mono text-xs text-slate-600">{id}</code>
    </>
  );
}

/** The states and events of one machine: French labels with the code's identifiers. */
export function WorkflowTables({ title, tables }: { title: string; tables: WorkflowTablesView }) {
  return (
    <div className="space-y-6 overflow-x-auto">
      <table className="w-full text-left text-sm" aria-label={`${t.statesTable} : ${title}`}>
        <caption className="pb-2 text-left font-semibold text-slate-900">{t.statesTable}</caption>
        <thead className="bg-slate-50 text-slate-600">
          <tr>
            <th className={th}>{t.columns.state}</th>
            <th className={th}>{t.columns.id}</th>
            <th className={th}>{t.columns.nature}</th>
            <th className={th}>{t.columns.actor}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {tables.states.map((state) => (
            <tr key={state.id}>
              <td className={td}>{state.label ?? t.missing}</td>
              <td className={td}>
                <code className="font-mono text-xs">{state.id}</code>
              </td>
              <td className={td}>{state.nature || t.missing}</td>
              <td className={td}>{state.invokes.length ? state.invokes.map((actor) => <Labelled key={actor.id} {...actor} />) : t.missing}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="w-full text-left text-sm" aria-label={`${t.eventsTable} : ${title}`}>
        <caption className="pb-2 text-left font-semibold text-slate-900">{t.eventsTable}</caption>
        <thead className="bg-slate-50 text-slate-600">
          <tr>
            <th className={th}>{t.columns.event}</th>
            <th className={th}>{t.columns.id}</th>
            <th className={th}>{t.columns.transitions}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {tables.events.map((event) => (
            <tr key={event.id}>
              <td className={td}>{event.label ?? t.missing}</td>
              <td className={td}>
                <code className="font-mono text-xs">{event.id}</code>
              </td>
              <td className={td}>
                <ul>
                  {event.transitions.map((transition) => (
                    <li key={transition} className="font-mono text-xs">
                      {transition}
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
