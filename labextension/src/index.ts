/**
 * Plugin wiring only: the panel in the right sidebar, the bridge following the current notebook,
 * commands (palette + View menu via the settings schema), settings and layout restore. Works in
 * JupyterLab 4 and Notebook 7: it needs no ILabShell.
 */

import {
  ILayoutRestorer,
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { Clipboard, ICommandPalette } from '@jupyterlab/apputils';
import { INotebookTracker, NotebookActions, NotebookPanel } from '@jupyterlab/notebook';
import { ISettingRegistry } from '@jupyterlab/settingregistry';

import { KernelBridge } from './kernel';
import { DeviceModel } from './model';
import { DevicePanel, devicesIcon, IPanelHost } from './panel';
import { CommandIDs, DEFAULT_SETTINGS, ISettings, PANEL_ID, PLUGIN_ID } from './tokens';

function insertBelow(tracker: INotebookTracker, code: string): void {
  const panel = tracker.currentWidget;
  if (!panel) {
    return;
  }
  NotebookActions.insertBelow(panel.content);
  NotebookActions.changeCellType(panel.content, 'code');
  panel.content.activeCell?.model.sharedModel.setSource(code);
}

function readSettings(settings: ISettingRegistry.ISettings): ISettings {
  const get = <T>(key: keyof ISettings): T =>
    (settings.get(key).composite ?? DEFAULT_SETTINGS[key]) as T;
  return {
    autoRefresh: get<boolean>('autoRefresh'),
    maxRows: get<number>('maxRows'),
    showMetaDevice: get<boolean>('showMetaDevice')
  };
}

function addCommands(app: JupyterFrontEnd, panel: DevicePanel, palette: ICommandPalette | null) {
  const open = () => app.shell.activateById(panel.id);
  app.commands.addCommand(CommandIDs.open, {
    label: 'Device Inspector',
    caption: 'Show where tensors, modules and optimizers live (devicelens)',
    icon: devicesIcon,
    execute: open
  });
  app.commands.addCommand(CommandIDs.refresh, {
    label: 'Device Inspector: Refresh',
    isEnabled: () => panel.model.status.state === 'ready',
    execute: () => panel.model.refresh().catch(() => undefined)
  });
  app.commands.addCommand(CommandIDs.moveAll, {
    label: 'Device Inspector: Move All to…',
    execute: async args => {
      open();
      const device = args.device as string | undefined;
      if (device) {
        await panel.model.planMove(device).catch(() => undefined);
      }
      panel.focusMove();
    }
  });
  if (palette) {
    const category = 'Devices';
    [CommandIDs.open, CommandIDs.refresh, CommandIDs.moveAll].forEach(command =>
      palette.addItem({ command, category })
    );
  }
}

const plugin: JupyterFrontEndPlugin<void> = {
  id: PLUGIN_ID,
  description: 'Sidebar inspector of PyTorch devices and dtypes in the notebook kernel.',
  autoStart: true,
  requires: [INotebookTracker],
  optional: [ICommandPalette, ISettingRegistry, ILayoutRestorer],
  activate: (
    app: JupyterFrontEnd,
    tracker: INotebookTracker,
    palette: ICommandPalette | null,
    registry: ISettingRegistry | null,
    restorer: ILayoutRestorer | null
  ) => {
    const bridge = new KernelBridge();
    const model = new DeviceModel(bridge);
    const host: IPanelHost = {
      insertCell: code => insertBelow(tracker, code),
      copy: code => Clipboard.copyToSystem(code)
    };
    const panel = new DevicePanel(model, host);
    panel.id = PANEL_ID;
    panel.title.icon = devicesIcon;
    panel.title.caption = 'Devices (devicelens)';
    app.shell.add(panel, 'right', { rank: 700 });
    restorer?.add(panel, 'devicelens');

    // NB: the comm is open only while the panel is visible: a kernel whose panel is closed
    // takes no snapshots after its cells
    let followed: NotebookPanel | null = null;
    const rename = (_: unknown, path: string) => bridge.setNotebookPath(path);
    const sync = () => {
      const nb = panel.isVisible ? followed : null;
      bridge.setNotebookPath(nb ? nb.context.path : '');
      bridge.setContext(nb ? nb.sessionContext : null);
    };
    const follow = (_: unknown, nb: NotebookPanel | null) => {
      followed?.context.pathChanged.disconnect(rename);
      followed = nb;
      nb?.context.pathChanged.connect(rename);
      sync();
    };
    tracker.currentChanged.connect(follow);
    panel.visibilityChanged.connect(sync);
    follow(null, tracker.currentWidget);

    addCommands(app, panel, palette);

    if (registry) {
      void registry.load(PLUGIN_ID).then(settings => {
        model.settings = readSettings(settings);
        settings.changed.connect(() => (model.settings = readSettings(settings)));
      });
    }
  }
};

export default plugin;
