import { useEffect } from 'react';
import { Toasts } from './components/Toasts.js';
import { CloseNotice } from './features/background/CloseNotice.js';
import { LoginQuestion } from './features/background/LoginQuestion.js';
import { CopyProgressList } from './features/copy/CopyProgressList.js';
import { ConfigBanner, ConnectionBanner } from './features/errors/ConfigBanner.js';
import { ProjectScreen } from './features/project/ProjectScreen.js';
import { useShortcuts } from './features/shortcuts.js';
import { ShortcutsSheet } from './features/ShortcutsSheet.js';
import { Sidebar } from './features/Sidebar.js';
import { useSidebarFolded } from './features/sidebarState.js';
import { LargeFolderDialog } from './features/start/LargeFolderDialog.js';
import { OpenFolderDialog } from './features/start/OpenFolderDialog.js';
import { StartScreen } from './features/start/StartScreen.js';
import { useFolderDrop } from './features/start/useFolderDrop.js';
import { ImportHistoryDialog } from './features/transfer/ImportHistoryDialog.js';
import { followLocation, restoreLocation } from './features/viewLocation.js';
import { useApp } from './stores/appStore.js';
import { startLiveEvents } from './stores/liveEvents.js';

// The window: the project list on the left; on the right the banners, any copies in progress,
// and the start screen or the current project.

export function App() {
  const current = useApp((s) => s.currentProjectId);
  const loadProjects = useApp((s) => s.loadProjects);
  const knowsProjects = useApp((s) => s.projects.length > 0);
  const askLoginOnce = useApp((s) => s.askLoginOnce);
  const dropping = useFolderDrop();
  const [sidebarFolded, toggleSidebar] = useSidebarFolded();
  useShortcuts({ toggleSidebar });

  useEffect(() => {
    const stop = startLiveEvents();
    let live = true;
    // At start: the projects, then the one the address names (a reload), then a look at every folder.
    void loadProjects().then(() => {
      if (live && !restoreLocation()) void useApp.getState().checkProjects();
    });
    const stopLocation = followLocation();
    // Back to the window: folders may have moved or come back meanwhile.
    const onFocus = () => void useApp.getState().checkProjects();
    window.addEventListener('focus', onFocus);
    return () => {
      live = false;
      stop();
      stopLocation();
      window.removeEventListener('focus', onFocus);
    };
  }, [loadProjects]);

  // The first project added (or known at a start before the question was answered): ask once.
  useEffect(() => {
    if (knowsProjects) void askLoginOnce();
  }, [knowsProjects, askLoginOnce]);

  return (
    <div className={sidebarFolded ? 'app sidebar-folded' : 'app'}>
      <Sidebar folded={sidebarFolded} onToggle={toggleSidebar} />
      <main className="main">
        <ConfigBanner />
        <ConnectionBanner />
        <CopyProgressList />
        {current ? <ProjectScreen key={current} projectId={current} /> : <StartScreen />}
      </main>
      <OpenFolderDialog />
      <LargeFolderDialog />
      <ImportHistoryDialog />
      <CloseNotice />
      <LoginQuestion />
      <ShortcutsSheet />
      <Toasts />
      {dropping && (
        <div className="drop-overlay" aria-hidden="true">
          <p>Drop a folder to open it</p>
        </div>
      )}
    </div>
  );
}
