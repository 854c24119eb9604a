/** `recover`: the newest safety copy in place of a local copy that will not open; the damaged one moved aside. */
import { UsageError } from '../../../src-shared/cli';
import { recoverFromSafetyCopy, safetyCopyDir } from '../../core/store/safety-copies';
import { defineCommand } from '../command';

export const recover = defineCommand({
  name: 'recover',
  summary: 'Puts the newest safety copy (made before every migration and restore) in place of a local copy that will not open; the damaged file is kept aside.',
  runOnFiles({ dataFile, out }) {
    const done = recoverFromSafetyCopy(dataFile);
    if (!done) throw new UsageError(`There is no safety copy of ${dataFile} (they are kept in ${safetyCopyDir(dataFile)}); restore a backup you made instead.`);
    out(
      { restored: done.restored, movedAside: done.movedAside },
      `Recovered ${dataFile} from the safety copy of ${done.restored.at} (${done.restored.reason}); the damaged file is kept as ${done.movedAside}.`,
    );
    return 0;
  },
});
