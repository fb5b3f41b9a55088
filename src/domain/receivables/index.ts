import type { RouteDef } from '../action';
import { billingRoutes } from './billing';
import { collectionRoutes } from './collections';
import { creditMemoRoutes } from './credit-memos';
import { policyRoutes } from './policy';
import { receivablesReadRoutes } from './reads';
import { receiptRoutes } from './receipts';
import { simRecordRoutes } from './sim-records';
import './subledgers';

export const receivablesRoutes: RouteDef[] = [...billingRoutes, ...receiptRoutes, ...creditMemoRoutes, ...collectionRoutes, ...policyRoutes, ...simRecordRoutes, ...receivablesReadRoutes];
