/** The service's commands, in the order help lists them. */
import type { AnyServiceCommand } from '../command';
import { addClient } from './add-client';
import { addTemplate } from './add-template';
import { addUser } from './add-user';
import { disableClient, enableClient } from './client-switch';
import { demo } from './demo';
import { migrate } from './migrate';
import { passwd } from './passwd';
import { serve } from './serve';
import { share } from './share';

export const COMMANDS: readonly AnyServiceCommand[] = [
  serve,
  demo,
  addClient,
  disableClient,
  enableClient,
  addUser,
  passwd,
  share,
  addTemplate,
  migrate,
];
