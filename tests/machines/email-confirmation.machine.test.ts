import { describeMachineModel } from '../model/harness';
import { model } from './email-confirmation.model';

describeMachineModel('e-mail confirmation machine (model)', model);
