/** `recover`: the newest sound safety copy in place of a local copy that is damaged; the damaged one kept aside. */
import { recoverFromSafetyCopy } from '../../core/app/recovery';
import { defineCommand } from '../command';

export const recover = defineCommand({
  name: 'recover',
  summary:
    'Puts the newest sound safety copy (made after syncs, daily, and before migrations and restores) in place of a local copy that is damaged; the damaged file is kept aside. A copy that is not damaged is left as it is.',
  runOnFiles({ dataFile, out, log }) {
    const done = recoverFromSafetyCopy(dataFile);
    log.info('The local copy was damaged and was recovered from a safety copy', {
      file: dataFile,
      safetyCopy: done.restored.file,
      movedAside: done.movedAside,
      uncertainWrites: done.uncertainWrites,
    });
    const uncertain = done.uncertainWrites
      ? `\n${done.uncertainWrites} write(s) of the safety copy may have reached the service since it was made: the next "sync" looks for each there before sending it again.`
      : '';
    out(
      { restored: done.restored, movedAside: done.movedAside, uncertainWrites: done.uncertainWrites },
      `Recovered ${dataFile} from the safety copy of ${done.restored.at} (${done.restored.reason}); the damaged file is kept as ${done.movedAside}.${uncertain}`,
    );
    return 0;
  },
});
